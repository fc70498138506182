# devport-test: target-torch=2.6
from unittest.mock import patch

patch("torch.accelerator.current_device_idx", return_value=0)  # expect: cuda-mock-device-index-target:unsafe -- 2.6 has only the deprecated current_device_idx
patch("torch.accelerator.set_device_idx")  # expect: cuda-mock-device-index-target:unsafe
