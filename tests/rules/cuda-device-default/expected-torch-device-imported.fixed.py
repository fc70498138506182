"""A module that imports torch's `device` by name (bitsandbytes' nn/modules.py: `from torch import
device`): a parameter called `device` is still the parameter, not torch.device."""
import torch
from torch import Tensor, device, dtype


def to_device(t: Tensor, device=torch.accelerator.current_accelerator().type):  # expect: cuda-device-default
    return t.to(device)


def cast(t: Tensor, dtype: dtype = torch.float16, device: str = torch.accelerator.current_accelerator().type):  # expect: cuda-device-default
    return t.to(device=device, dtype=dtype)


# Negatives: another parameter, another default.
def other(t, dev=device("cpu"), device_map="cuda"):
    return t
