# devport-test: rules=all
"""A skip that applies where CUDA is there (tensordict's benchmarks), and parametrized availability (skorch)."""
import unittest
from unittest.mock import patch

import pytest
import torch


@pytest.mark.skipif(torch.cuda.is_available(), reason="max recursion depth error with cuda")  # expect: cuda-is-available:unsafe -- it would skip on every accelerator
def test_assign_and_add():
    assert sum(range(3)) == 3


@unittest.skipUnless(not torch.cuda.is_available(), "CPU-only behaviour")  # expect: cuda-is-available:unsafe
def test_cpu_only():
    assert True


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")  # expect: cuda-is-available:safe
def test_sum():
    assert torch.ones(2, device="cuda").sum() == 2


@pytest.mark.parametrize("cuda_available", {False, torch.cuda.is_available()})  # expect: cuda-is-available:report -- the test patches torch.cuda.is_available with it
def test_pickle_load(cuda_available):
    with patch("torch.cuda.is_available", lambda *_: cuda_available):
        assert cuda_available in (False, True)


@pytest.mark.skipif(torch.cuda.is_available() and torch.cuda.device_count() < 2, reason="needs 2 GPUs")  # expect: cuda-is-available:unsafe, cuda-device-count:safe
def test_two_processes():
    assert True


class DistCall:
    # MONAI's test helper: on CUDA, ask for enough GPUs; elsewhere, run on the CPU with gloo.
    def __init__(self, nproc_per_node):
        self.nproc_per_node = nproc_per_node

    def __call__(self, obj):
        if torch.cuda.is_available() and torch.cuda.device_count() < self.nproc_per_node:  # expect: cuda-is-available:unsafe -- a Mac would skip what ran on the CPU
            raise unittest.SkipTest(f"not enough GPUs, {self.nproc_per_node} required")
        return obj
