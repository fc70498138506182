import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

props = torch.get_device_module().get_device_properties(0)  # expect: cuda-device-properties
name = torch.get_device_module().get_device_name()  # expect: cuda-device-properties
if torch.get_device_module().is_bf16_supported():  # expect: cuda-device-properties
    pass
free, total = torch.get_device_module().mem_get_info(dev)  # expect: cuda-device-properties


# Negatives.
cap = torch.cuda.get_device_capability()
torch.cuda.get_device
