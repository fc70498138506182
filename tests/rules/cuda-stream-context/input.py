import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

with torch.cuda.stream(side):  # expect: cuda-stream-context
    pass
ctx = torch.cuda.stream(stream=None)  # expect: cuda-stream-context


# Negatives.
with torch.cuda.device(0):
    pass
s = torch.cuda.Stream()
