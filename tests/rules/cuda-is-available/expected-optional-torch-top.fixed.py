# devport-test: rules=all
"""Negative: torch imported at the top as well, the module needs it anyway."""
import torch
import torch.nn as nn

try:
    from torch.cuda import is_available as cuda_available
except ImportError:
    cuda_available = None


def accelerated():
    return torch.accelerator.is_available()  # expect: cuda-is-available:safe
