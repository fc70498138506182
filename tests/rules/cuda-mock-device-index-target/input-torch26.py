# devport-test: target-torch=2.6
from unittest.mock import patch

patch("torch.cuda.current_device", return_value=0)  # expect: cuda-mock-device-index-target:unsafe -- 2.6 has only the deprecated current_device_idx
patch("torch.cuda.set_device")  # expect: cuda-mock-device-index-target:unsafe
