# devport-test: rules=all
"""What the mark guards holds no CUDA word: a float64 test, which MPS cannot run."""
import pytest
import torch

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")  # expect: cuda-is-available:report -- MPS has no float64


def test_double():
    x = torch.ones(2, dtype=torch.float64)
    assert x.sum() == 2
