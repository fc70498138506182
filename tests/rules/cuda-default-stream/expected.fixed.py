import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

s = torch.get_device_module().default_stream()  # expect: cuda-default-stream
s = torch.get_device_module().default_stream(device=1)  # expect: cuda-default-stream


# Negatives.
s = torch.cuda.current_stream()
