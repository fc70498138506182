import unittest
from unittest import mock

import torch

torch.backends.cuda.matmul.allow_tf32 = True  # expect: keep-backends-cuda
torch.backends.cuda.enable_flash_sdp(False)  # expect: keep-backends-cuda

# Negatives.
torch.backends.mps.is_available()
