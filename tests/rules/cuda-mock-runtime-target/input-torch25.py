# devport-test: target-torch=2.5
from unittest.mock import patch

patch("torch.cuda.device_count", return_value=2)  # expect: cuda-mock-runtime-target:report -- torch.accelerator is 2.6
