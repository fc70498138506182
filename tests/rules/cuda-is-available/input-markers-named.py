# devport-test: rules=all
"""A skip marker kept in a name without "skip" in it guards the tests it decorates too."""
import pytest
import torch

requires_gpu = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")  # expect: cuda-is-available:report -- MPS has no float64
needs_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")  # expect: cuda-is-available:unsafe -- other modules may import it


def helper():
    return 1


@requires_gpu
def test_double():
    x = torch.ones(2, dtype=torch.float64)
    assert x.sum() == 2


@needs_cuda
def test_sum():
    assert torch.zeros(2).sum() == 0
