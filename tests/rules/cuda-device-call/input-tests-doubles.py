# devport-test: rules=all
"""Test doubles skip nothing (docs/safety.md, Tests): a mock of a CUDA query, or one that returns
a CUDA device, is why the test passes on a CPU-only CI, where the ported device is None."""
from unittest import mock
from unittest.mock import PropertyMock

import pytest
import torch


class Runner:
    @property
    def device(self):
        return torch.device("cpu")


def available_flops(device):
    if device.type == "cuda":
        return 1.0
    return None


@mock.patch.object(Runner, "device", new_callable=PropertyMock, return_value=torch.device("cuda"))  # expect: cuda-device-call:unsafe
def test_mocked_property(device_mock):
    # Lightning's test_fabric.py: the only CUDA in the decorator is the value the mock returns.
    assert Runner().device == torch.device("cuda")  # expect: cuda-device-call:unsafe -- a CPU-only CI runs the test


@mock.patch("torch.cuda.is_available", return_value=True)  # expect: cuda-mock-runtime-target
def test_mocked_availability(_):
    devices = [torch.device("cuda")]  # expect: cuda-device-call:unsafe -- a CPU-only CI runs the test
    assert len(devices) == 1


def test_with_double():
    # Lightning's test_throughput.py: the double replaces the CUDA query.
    with mock.patch("torch.cuda.get_device_name", return_value="NVIDIA H100"):  # expect: cuda-mock-patch
        flops = available_flops(torch.device("cuda"))  # expect: cuda-device-call:unsafe -- a CPU-only CI runs the test
    assert flops == 1.0
    with pytest.warns(UserWarning), mock.patch("torch.cuda.get_device_name", return_value="t4"):  # expect: cuda-mock-patch
        assert available_flops(torch.device("cuda")) is None  # expect: cuda-device-call:unsafe -- a CPU-only CI runs the test


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")  # expect: cuda-is-available:report
@mock.patch("torch.cuda.get_device_name", return_value="NVIDIA H100")  # expect: cuda-mock-patch
def test_skipped_and_mocked(_):
    # Negative: the skip still skips.
    assert available_flops(torch.device("cuda")) == 1.0  # expect: cuda-device-call:safe -- skipped without CUDA


def test_device_context():
    # Negative: a device context needs CUDA (not a double).
    with torch.cuda.device(0):  # expect: cuda-device-context
        d = torch.device("cuda")  # expect: cuda-device-call:safe
    assert d.type
