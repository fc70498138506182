# devport-test: rules=all
"""Module constants that a module-level check decides are other modules' too (MONAI's tests/test_utils.py)."""
from functools import partial

import torch

TEST_TORCH_TENSORS = (torch.as_tensor,)
if torch.accelerator.is_available():  # expect: cuda-is-available:unsafe -- TEST_TORCH_TENSORS is imported by other test modules
    gpu_tensor = partial(torch.as_tensor, device=torch.accelerator.current_accelerator().type)
    TEST_TORCH_TENSORS = TEST_TORCH_TENSORS + (gpu_tensor,)

TEST_DEVICES = [[torch.device("cpu")]]
if torch.accelerator.is_available():  # expect: cuda-is-available:unsafe
    TEST_DEVICES.append([torch.accelerator.current_accelerator()])

DEVICE = torch.device(torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu")  # expect: cuda-is-available:unsafe

_PRIVATE = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"  # expect: cuda-is-available:safe -- a private name


def helper():
    devices = ["cpu"]
    if torch.accelerator.is_available():  # expect: cuda-is-available:safe -- in a function: its own
        devices.append(torch.accelerator.current_accelerator())
    return devices


if torch.accelerator.is_available():  # expect: cuda-is-available:safe -- nothing exported
    torch.backends.cuda.matmul.allow_tf32 = True
