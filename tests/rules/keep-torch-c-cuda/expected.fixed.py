import unittest
from unittest import mock

import torch

torch._C._cuda_clearCublasWorkspaces()  # expect: keep-torch-c-cuda
n = torch._C._cuda_getDeviceCount()  # expect: keep-torch-c-cuda

# Negatives.
torch._C._get_accelerator()
