# devport-test: rules=all
"""A module whose tests are portable once their fixes are made: the mark's fix stays safe."""
import pytest
import torch

pytestmark = pytest.mark.skipif(not torch.accelerator.is_available(), reason="needs CUDA")  # expect: cuda-is-available:safe


def test_matmul():
    x = torch.ones(2, 2, device=torch.accelerator.current_accelerator().type)
    assert (x @ x).sum() == 8


def helper_outside_tests():
    return torch.zeros(1).to(device=torch.accelerator.current_accelerator())
