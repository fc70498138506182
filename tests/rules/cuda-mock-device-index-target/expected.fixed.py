from unittest import mock
from unittest.mock import patch


@patch("torch.accelerator.current_device_index", return_value=1)  # expect: cuda-mock-device-index-target:unsafe -- current_device_index from 2.7
def test_current(_):
    pass


def test_set(monkeypatch, mocker):
    calls = []
    monkeypatch.setattr("torch.accelerator.set_device_index", calls.append)  # expect: cuda-mock-device-index-target:unsafe
    mocker.patch("trainer.torch.accelerator.set_device_index")  # expect: cuda-mock-device-index-target:unsafe


# Negatives.
patch("torch.cuda.device")  # cuda-mock-patch's
patch("torch.cuda.current_device_name")
patch("torch.accelerator.current_device_index")
