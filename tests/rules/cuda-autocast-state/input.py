import unittest
from unittest import mock

import torch
import torch as pt


def cast_inputs(x):
    if torch.is_autocast_enabled():  # expect: cuda-autocast-state
        x = x.to(torch.get_autocast_gpu_dtype())  # expect: cuda-autocast-state
    return x


def fast_norm_dtype():
    return pt.get_autocast_gpu_dtype()  # expect: cuda-autocast-state


torch.set_autocast_gpu_dtype(torch.bfloat16)  # expect: cuda-autocast-state
torch.set_autocast_enabled(True)  # expect: cuda-autocast-state
torch.set_autocast_gpu_dtype(  # expect: cuda-autocast-state
    dtype=dtype,
)
enabled = (
    torch.is_autocast_enabled()  # expect: cuda-autocast-state
    or torch.is_autocast_enabled("cpu")
)


# Negatives: the device-type forms, CPU autocast, references, strings, mocks.
torch.is_autocast_enabled("cuda")
torch.is_autocast_enabled(device_type)
torch.get_autocast_dtype("cuda")
torch.set_autocast_dtype("xpu", torch.bfloat16)
torch.set_autocast_enabled("cuda", True)
torch.is_autocast_cpu_enabled()
torch.get_autocast_cpu_dtype()
torch.set_autocast_enabled("cuda")
torch.set_autocast_gpu_dtype(*args)
state = torch.is_autocast_enabled
"""Call torch.is_autocast_enabled() to ask."""
with mock.patch("torch.is_autocast_enabled", return_value=True):
    pass


def is_autocast_enabled():
    return False


is_autocast_enabled()
