import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

x = torch.cuda.FloatTensor(2, 3)  # expect: cuda-legacy-tensor-type
if isinstance(t, torch.cuda.LongTensor):  # expect: cuda-legacy-tensor-type
    pass


# Negatives.
x = torch.FloatTensor(2)
name = "torch.cuda.FloatTensor"
