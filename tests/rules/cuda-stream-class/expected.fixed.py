import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

s = torch.Stream()  # expect: cuda-stream-class
s = torch.Stream(dev)  # expect: cuda-stream-class
s = torch.Stream(dev, priority=-1)  # expect: cuda-stream-class
s = torch.Stream(priority=-1)  # expect: cuda-stream-class
s = torch.Stream(dev, priority=0)  # expect: cuda-stream-class


# Negatives.
s = torch.Stream()
s = torch.cuda.Stream(stream_ptr=p)
with torch.cuda.stream(s):
    pass
