import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

from torch.testing._internal.common_device_type import dtypesIfCUDA


@dtypesIfCUDA(torch.half, torch.float)  # expect: cuda-test-dtypes-if-cuda
def test_x(self, device, dtype):
    pass


# Negatives.
@dtypes(torch.float)
def test_y(self, device, dtype):
    pass
