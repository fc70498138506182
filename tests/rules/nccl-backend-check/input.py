import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

if BACKEND == "nccl":  # expect: nccl-backend-check
    pass
skip = backend != 'nccl'  # expect: nccl-backend-check


# Negatives.
dist.init_process_group("nccl")
