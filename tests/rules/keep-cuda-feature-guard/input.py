import unittest
from unittest import mock

import torch

SM80 = torch.cuda.is_available() and torch.cuda.get_device_capability() >= (8, 0)  # expect: keep-cuda-feature-guard
use_cudnn = torch.cuda.is_available() and torch.backends.cudnn.enabled  # expect: keep-cuda-feature-guard

# Negatives.
ok = torch.cuda.is_available() and x > 0
