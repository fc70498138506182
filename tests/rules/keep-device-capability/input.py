import unittest
from unittest import mock

import torch

major, minor = torch.cuda.get_device_capability()  # expect: keep-device-capability
if torch.cuda.get_device_capability(torch.cuda.current_device()) >= (8, 0):  # expect: keep-device-capability
    pass

# Negatives.
torch.xpu.get_device_capability()
