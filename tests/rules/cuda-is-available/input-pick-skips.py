# devport-test: rules=all
"""A device pick whose "cpu" decides a skip (Megatron-LM's Mamba kernel tests: "Mamba Triton kernels
require CUDA"): the check is what keeps other hosts out; ported, a Mac picks "mps" and runs the
kernels the author skipped."""
import unittest

import pytest
import torch


class TestKernel(unittest.TestCase):
    def setUp(self):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")  # expect: cuda-is-available:unsafe -- the pick decides the skip
        if self.device.type == "cpu":
            self.skipTest("Triton kernels require CUDA")

    def test_kernel(self):
        x = torch.randn(8, device=self.device)
        self.assertEqual(x.shape, (8,))


def test_function():
    device = "cuda" if torch.cuda.is_available() else "cpu"  # expect: cuda-is-available:unsafe -- a pytest skip on "cpu"
    if device == "cpu":
        pytest.skip("needs CUDA")
    assert torch.ones(2, device=device).sum() == 2


def run(model):
    device = "cuda" if torch.cuda.is_available() else "cpu"  # expect: cuda-is-available:safe -- a "cpu" branch that runs on
    if device == "cpu":
        model = model.float()
    return model.to(device)
