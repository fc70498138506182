import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

with torch.get_device_module().device(rank):  # expect: cuda-device-context
    pass
with torch.get_device_module().device(x.device):  # expect: cuda-device-context
    pass


# Negatives.
d = torch.device("cpu")
with torch.xpu.device(0):
    pass
