import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

device_mod = torch.cuda  # expect: cuda-module-value
self.mod = torch.cuda  # expect: cuda-module-value


# Negatives.
m = torch.cuda if torch.device(d).type == "cuda" else torch
x = torch.cuda.amp
torch.cuda.synchronize()
