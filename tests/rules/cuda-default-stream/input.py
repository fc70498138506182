import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

s = torch.cuda.default_stream()  # expect: cuda-default-stream
s = torch.cuda.default_stream(device=1)  # expect: cuda-default-stream


# Negatives.
s = torch.cuda.current_stream()
