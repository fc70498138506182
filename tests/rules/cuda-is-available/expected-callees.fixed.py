# devport-test: rules=all
"""A guard runs what the guarded code calls: the module's functions and classes, a class's metaclass."""
import unittest

import torch


def mark(name):
    torch.cuda.nvtx.range_push(name)


def total(x):
    return x.sum()


def annotated(x):
    mark("annotated")
    return total(x)


class DeviceMeta(type):
    def __new__(mcs, name, bases, attrs):
        def test_dp(self):
            mark("dp")

        attrs["test_dp"] = test_dp
        return super().__new__(mcs, name, bases, attrs)


def profiled(x):
    if torch.cuda.is_available():  # expect: cuda-is-available:report -- mark() pushes an NVTX range
        mark("step")
    return total(x)


def through(x):
    if torch.cuda.is_available():  # expect: cuda-is-available:report -- annotated() calls mark()
        x = annotated(x)
    return x


def summed(x):
    if torch.accelerator.is_available():  # expect: cuda-is-available:safe -- total() is portable
        x = total(x)
    return x


def countdown(n):
    if torch.accelerator.is_available() and n:  # expect: cuda-is-available:safe -- its own function is not what it guards
        countdown(n - 1)


if torch.cuda.is_available():  # expect: cuda-is-available:report -- the metaclass's tests push NVTX ranges
    class DataParallelTest(unittest.TestCase, metaclass=DeviceMeta):
        pass


class KernelTest(unittest.TestCase):
    # A method called through `self` runs with its caller (gpytorch's kernel tests).
    def test_constant(self):
        self._check(torch.device("cpu"))
        if torch.cuda.is_available():  # expect: cuda-is-available:report -- _check() makes float64 tensors, which MPS has not
            self._check(torch.accelerator.current_accelerator())

    def test_sum(self):
        if torch.accelerator.is_available():  # expect: cuda-is-available:safe -- _total() is portable
            self._total(torch.ones(2, device=torch.accelerator.current_accelerator().type))

    def _check(self, device):
        for dtype in (torch.float, torch.double):
            torch.rand(3, dtype=dtype, device=device)

    def _total(self, x):
        return x.sum()
