"""Module docstring: torch.cuda.is_available() here is documentation, not code.

>>> torch.cuda.is_available()  # expect: cuda-is-available
True
"""
import unittest
from unittest import mock

import torch
import torch.cuda as tc
from torch import cuda

# A comment that mentions torch.cuda.is_available() is never touched.
USE_GPU = torch.accelerator.is_available()  # expect: cuda-is-available
device = "cuda" if torch.cuda.is_available() else "cpu"  # expect: cuda-is-available

if torch.accelerator.is_available():  # expect: cuda-is-available
    pass
if torch.accelerator.is_available():  # expect: cuda-is-available
    pass
if torch.accelerator.is_available():  # expect: cuda-is-available
    pass
if not torch.accelerator.is_available(  # expect: cuda-is-available
):
    pass

skip = unittest.skipIf(not torch.accelerator.is_available(), "needs an accelerator")  # expect: cuda-is-available


def local_import():
    from torch.cuda import is_available

    return torch.accelerator.is_available()  # expect: cuda-is-available


def not_resolved_here():
    # `is_available` is not imported in this scope: an unrelated function.
    return is_available()


# Negative cases: references that are not calls, strings, mocks and lookalikes.
checker = torch.cuda.is_available
name = "torch.cuda.is_available()"
patched = mock.patch("torch.cuda.is_available", return_value=False)
mock.patch.object(torch.cuda, "is_available", return_value=False)
torch.xpu.is_available()
torch.backends.cudnn.is_available()
torch.accelerator.is_available()
self_torch = object()
self_torch.torch.cuda.is_available()

ok = torch.cuda.is_available()  # devport: ignore[cuda-is-available]
also_ok = torch.cuda.is_available()  # devport: ignore
