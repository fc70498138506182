import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

mod = torch.get_device_module(device_type)  # expect: cuda-module-getattr


# Negatives.
mod = getattr(torch, device_type)
mod = getattr(torch, "cuda")
