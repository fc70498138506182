import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

dist.init_process_group("cpu:gloo,cuda:nccl")  # expect: mixed-backend-string


# Negatives.
dist.init_process_group("gloo")
