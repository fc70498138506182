# devport-test: rules=all
"""A skip marker kept in a name guards the tests it decorates (fairscale's tests)."""
import pytest
import torch

skip_if_no_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="CUDA required")  # expect: cuda-is-available:report -- test_create_cuda's .cuda() stays
skip_if_no_gpu = pytest.mark.skipif(not torch.accelerator.is_available(), reason="a GPU required")  # expect: cuda-is-available:unsafe -- other modules may import it


@skip_if_no_cuda
def test_create_cuda():
    x = torch.zeros(4)
    assert x.cuda().is_cuda  # expect: cuda-method


@skip_if_no_gpu
def test_sum():
    assert torch.zeros(2).sum() == 0


def helper():
    # In a function: its uses are here, and they are portable.
    skip_here = pytest.mark.skipif(not torch.accelerator.is_available(), reason="x")  # expect: cuda-is-available:safe
    return skip_here
