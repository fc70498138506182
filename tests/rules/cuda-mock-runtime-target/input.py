import unittest
from unittest import mock
from unittest.mock import patch

import torch


class TestLauncher(unittest.TestCase):
    @patch("torch.cuda.is_available", return_value=False)  # expect: cuda-mock-runtime-target:unsafe -- right only once the launcher calls torch.accelerator.is_available
    def test_cpu(self, _):
        pass

    @mock.patch('torch.cuda.device_count', return_value=3)  # expect: cuda-mock-runtime-target:unsafe
    def test_count(self, _):
        pass

    def test_sync(self):
        with mock.patch("torch.cuda.synchronize") as sync:  # expect: cuda-mock-runtime-target:unsafe
            run()
        sync.assert_called_once()

    def test_in_module(self):
        with patch(
            "mypkg.trainer.torch.cuda.is_available",  # expect: cuda-mock-runtime-target:unsafe -- the module's own torch: the prefix stays
            lambda: True,
        ):
            pass


def test_pytest(monkeypatch, mocker):
    monkeypatch.setattr("torch.cuda.is_available", lambda: False)  # expect: cuda-mock-runtime-target:unsafe
    mocker.patch("torch.cuda.current_stream")  # expect: cuda-mock-runtime-target:unsafe


# Negatives.
patch("torch.cuda.get_device_capability", return_value=(8, 0))  # not rewritten by devport
patch("torch.cuda.is_available_fast")
patch("torch.xpu.is_available", return_value=False)
patch("torch.accelerator.is_available", return_value=False)
patch.object(torch.cuda, "is_available", return_value=False)  # cuda-mock-patch's
TARGET = "torch.cuda.is_available"  # a string alone is not a double
# patch("torch.cuda.is_available")
