# devport-test: rules=all
"""A check beside a CUDA device check that only an unsafe fix ports (stable-baselines3's
get_device): `fix` leaves `th.device("cuda").type` asking for CUDA, and the availability check
ported alone would let a Mac's "auto" through to `th.device("cuda")`."""
import torch as th


def get_device(device="auto"):
    if device == "auto":
        device = th.accelerator.current_accelerator().type
    device = th.device(device)
    # CUDA was asked for and is missing: fall back to the CPU
    if device.type == th.accelerator.current_accelerator().type and not th.accelerator.is_available():  # expect: cuda-is-available:unsafe -- with the comparison's unsafe fix
        return th.device("cpu")
    return device


def pick(device):
    if device.type == "cuda" and not th.cuda.is_available():  # expect: cuda-is-available:report -- the string stays
        return th.device("cpu")
    return device
