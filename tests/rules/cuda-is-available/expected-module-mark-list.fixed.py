# devport-test: rules=all
"""A list of marks in `pytestmark`; what the module's tests ask of a tensor stays CUDA's."""
import pytest
import torch

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not torch.cuda.is_available(), reason="GPU")]  # expect: cuda-is-available:report -- `.is_cuda` stays


def test_to():
    y = torch.ones(2).to(torch.accelerator.current_accelerator().type)
    assert y.is_cuda
