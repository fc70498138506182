import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

s = torch.cuda.Stream()  # expect: cuda-stream-class
s = torch.cuda.Stream(dev)  # expect: cuda-stream-class
s = torch.cuda.Stream(dev, -1)  # expect: cuda-stream-class
s = torch.cuda.Stream(priority=-1)  # expect: cuda-stream-class
s = torch.cuda.Stream(device=dev, priority=0)  # expect: cuda-stream-class


# Negatives.
s = torch.Stream()
s = torch.cuda.Stream(stream_ptr=p)
with torch.cuda.stream(s):
    pass
