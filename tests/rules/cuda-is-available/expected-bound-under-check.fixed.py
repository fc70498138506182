# devport-test: rules=all
"""A module name bound only under a CUDA check, with no else (tensordict's compile tests)."""
import pytest
import torch


def is_npu_available():
    return hasattr(torch, "npu") and torch.npu.is_available()


if torch.cuda.is_available():
    cur_device = "cuda"
elif is_npu_available():
    cur_device = "npu"

if torch.accelerator.is_available():  # expect: cuda-is-available:safe
    other = torch.zeros(1)
else:
    other = None


@pytest.mark.skipif(not torch.cuda.is_available(), reason="cuda required")  # expect: cuda-is-available:report -- cur_device is unbound on a Mac
def test_to():
    device = f"{cur_device}:0"
    assert torch.zeros(3).to(device).device.index == 0


@pytest.mark.skipif(not torch.accelerator.is_available(), reason="cuda required")  # expect: cuda-is-available:safe -- other is bound either way
def test_other():
    assert other is not None


def helper():
    pass


dev_name = None
if torch.accelerator.is_available():  # expect: cuda-is-available:safe
    dev_name = make_name()


@pytest.mark.skipif(not torch.accelerator.is_available(), reason="cuda required")  # expect: cuda-is-available:safe -- dev_name is bound before
def test_name():
    assert dev_name
