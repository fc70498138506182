# devport-test: rules=all
"""A comment on the statement that picks a device, naming another backend: the author sends it to
the CPU on purpose (unsloth's Studio trainer: "SNAC unvalidated on Intel XPU; keep the pre-PR
CPU fallback for non-CUDA hosts"). Kept, as a ladder whose fallback says so is."""
import torch


def snac(model):
    # SNAC unvalidated on Intel XPU; keep the pre-PR CPU fallback for non-CUDA hosts.
    device = "cuda" if torch.cuda.is_available() else "cpu"
    return model.to(device)


def whisper(load):
    device = "cuda" if torch.cuda.is_available() else "cpu"  # no MPS: fp16 decode there
    return load(device)


def codec(load):
    # OuteTTS DAC/Whisper preprocess unvalidated on XPU.
    # CPU fallback kept.
    device = torch.device(
        "cuda" if torch.cuda.is_available() else "cpu"
    )
    return load(device)


def plain(model):
    # Pick the device.
    device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"  # expect: cuda-is-available:safe
    return model.to(device)


def separated(model):
    # The XPU path is handled by the caller.

    device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"  # expect: cuda-is-available:safe -- a blank line between
    return model.to(device)
