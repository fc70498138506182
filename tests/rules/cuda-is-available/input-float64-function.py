# devport-test: rules=all
"""A guard that moves tensors to the device, in a function that uses float64 outside it
(mmdetection's test_memory.py): ported, a Mac moves the float64 tensor to MPS, which has no
float64, where the CPU took it before."""
import numpy as np
import torch


def test_made_before():
    t = torch.rand(20, 20, dtype=torch.float64)
    if torch.cuda.is_available():  # expect: cuda-is-available:unsafe -- float64 made before the guard
        t = t.cuda()  # expect: cuda-method:safe
    return torch.mm(t, t.T)


def test_checked_after():
    t = torch.from_numpy(np.random.random((20, 20)))
    if torch.cuda.is_available():  # expect: cuda-is-available:unsafe -- float64 asserted after it
        t = t.cuda()  # expect: cuda-method:safe
    out = torch.mm(t, t.T)
    assert out.dtype == torch.float64


# Negatives: float32 only; float64 in another function; nothing moved to the device.
def test_float32():
    t = torch.rand(20, 20)
    if torch.cuda.is_available():  # expect: cuda-is-available:safe
        t = t.cuda()  # expect: cuda-method:safe
    return t


def test_nested():
    def reference(x):
        return x.double()

    t = torch.rand(2, 2)
    if torch.cuda.is_available():  # expect: cuda-is-available:safe
        t = t.cuda()  # expect: cuda-method:safe
    return reference(t.cpu())


def test_no_move():
    t = torch.rand(2, 2, dtype=torch.float64)
    if torch.cuda.is_available():  # expect: cuda-is-available:safe
        torch.cuda.synchronize()  # expect: cuda-synchronize:safe
    return t
