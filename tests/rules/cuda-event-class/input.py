import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

start = torch.cuda.Event(enable_timing=True)  # expect: cuda-event-class
end = torch.cuda.Event(True)  # expect: cuda-event-class
e = torch.cuda.Event()  # expect: cuda-event-class
e = torch.cuda.Event(False, True)  # expect: cuda-event-class


# Negatives.
e = torch.Event(enable_timing=True)
e = torch.cuda.Event.from_ipc_handle(dev, h)
