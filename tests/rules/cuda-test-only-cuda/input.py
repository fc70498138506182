import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

from torch.testing._internal.common_device_type import onlyCUDA


class TestFoo:
    @onlyCUDA  # expect: cuda-test-only-cuda
    def test_bar(self, device):
        pass


# Negatives.
def onlyCUDA(fn):
    return fn
