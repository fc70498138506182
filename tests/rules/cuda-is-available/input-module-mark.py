# devport-test: rules=all
"""A module's `pytestmark` guards every test in it: ported, the module runs on a Mac."""
import pytest
import torch

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")  # expect: cuda-is-available:report -- test_cudnn's cuDNN query stays CUDA's


def test_matmul():
    x = torch.ones(2, 2, device="cuda")
    assert (x @ x).sum() == 8


def test_cudnn():
    assert torch.backends.cudnn.is_available()
