import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

dist.init_process_group(backend=dist.get_default_backend_for_device(torch.accelerator.current_accelerator()), rank=0)  # expect: nccl-backend-enum
dist.init_process_group(dist.get_default_backend_for_device(torch.accelerator.current_accelerator()))  # expect: nccl-backend-enum


# Negatives.
dist.init_process_group(backend=dist.Backend.GLOO)
if backend == dist.Backend.NCCL:
    pass
