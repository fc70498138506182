import unittest
from unittest import mock

import torch
import torch.cuda as tc


class TestDevices(unittest.TestCase):
    def test_count(self):
        with mock.patch.object(torch.cuda, "device_count", return_value=4):  # expect: cuda-mock-patch:report -- the code under test may call torch.accelerator.device_count
            pass

    @mock.patch.object(tc, 'is_available', return_value=False)  # expect: cuda-mock-patch:report -- through an alias
    def test_alias(self, _):
        pass

    def test_seed(self):
        with mock.patch("torch.cuda.manual_seed") as seed:  # expect: cuda-mock-patch:report -- rewritten to torch.get_device_module().manual_seed: torch.cpu on a CPU-only host
            pass
        with mock.patch("torch.cuda.random.get_rng_state"):  # expect: cuda-mock-patch:report
            pass


def test_pytest(monkeypatch, mocker):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)  # expect: cuda-mock-patch:report
    mocker.patch.object(  # expect: cuda-mock-patch:report -- a multi-line call
        torch.cuda,
        "empty_cache",
    )
    setattr(torch.cuda, "current_device", lambda: 0)  # expect: cuda-mock-patch:report
    mocker.patch("torch.cuda.get_device_properties")  # expect: cuda-mock-patch:report
    mocker.patch("torch.cuda.is_bf16_supported", return_value=True)  # expect: cuda-mock-patch:report


# Negatives.
mock.patch.object(torch.cuda, "_raw_device_count_nvml", return_value=2)  # keep-cuda-mocks'
mock.patch.object(torch.cuda, "get_device_capability", return_value=(8, 0))  # keep-cuda-mocks'
mock.patch.object(torch.xpu, "device_count", return_value=4)
mock.patch.object(torch.cuda.nccl, "version")
patch_dict = {"torch.cuda.manual_seed": 1}
mock.patch("torch.cuda.device_count")  # cuda-mock-runtime-target's
# mock.patch.object(torch.cuda, "device_count")
