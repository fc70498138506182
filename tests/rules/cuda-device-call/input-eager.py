"""Where `torch.device("cuda")` is evaluated decides whether its fix is safe on a CPU-only
build (docs/safety.md): there `current_accelerator()` raises (2.6) or is None (2.7+), while
`torch.device("cuda")` only named a device."""
import dataclasses

import torch

DEVICE = torch.device("cuda")  # expect: cuda-device-call:unsafe -- module level runs at import
CHOSEN = torch.device("cuda") if torch.cuda.is_available() else torch.device("cpu")  # expect: cuda-device-call:safe -- only where there is an accelerator
DEVICES = {"main": torch.device("cuda")}  # expect: cuda-device-call:unsafe
ON_GPU = torch.zeros(2).device == torch.device("cuda")  # expect: cuda-device-call:unsafe -- the comparison ran on a CPU-only build
ZEROS = torch.zeros(2, device=torch.device("cuda"))  # expect: cuda-device-call:safe -- the original failed on a CPU-only build too
MOVED = torch.ones(2).to(torch.device("cuda"))  # expect: cuda-device-call:safe

if torch.cuda.is_available():
    GPU = torch.device("cuda")  # expect: cuda-device-call:safe


def default_parameter(x, device=torch.device("cuda")):  # expect: cuda-device-call:unsafe -- evaluated at definition
    return x.to(device)


def in_a_function(x):
    device = torch.device("cuda")  # expect: cuda-device-call:safe -- runs when called
    return x.to(device)


def argparse_default(parser):
    parser.add_argument("--device", type=torch.device, default=torch.device("cuda"))  # expect: cuda-device-call:unsafe -- before --device applies
    parser.add_argument("--other", default=str(torch.device("cuda")))  # expect: cuda-device-call:unsafe


class Config:
    device = torch.device("cuda")  # expect: cuda-device-call:unsafe -- class level

    def method(self):
        return torch.device("cuda")  # expect: cuda-device-call:safe


@dataclasses.dataclass
class Options:
    device: torch.device = dataclasses.field(default_factory=lambda: torch.device("cuda"))  # expect: cuda-device-call:safe -- runs when an instance is made
    other: torch.device = dataclasses.field(default=torch.device("cuda"))  # expect: cuda-device-call:unsafe


def with_decorator(f):
    return f


@with_decorator(torch.device("cuda"))  # expect: cuda-device-call:unsafe -- evaluated at definition
def decorated():
    pass


if __name__ == "__main__":
    MAIN_DEVICE = torch.device("cuda")  # expect: cuda-device-call:safe -- the script's run


def broadcast_params(default_device):
    # A comparison only compares (fairscale's OSS.step: `torch.device("cuda").type == ...`): a
    # CPU-only build ran it, and there current_accelerator() is None.
    same = torch.device("cuda").type == default_device.type  # expect: cuda-device-call:unsafe -- a comparison runs on a CPU-only build
    return same


def on_default(default_device, accelerated):
    # Negative: under an availability check, the comparison runs only with an accelerator.
    return torch.device("cuda") == default_device if torch.accelerator.is_available() else False  # expect: cuda-device-call:safe -- only with an accelerator
