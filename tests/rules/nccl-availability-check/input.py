import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

if dist.is_nccl_available():  # expect: nccl-availability-check
    pass


# Negatives.
if dist.is_gloo_available():
    pass
