import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

with torch.random.fork_rng():  # expect: fork-rng-default-device
    pass
with torch.random.fork_rng(devices=[0]):  # expect: fork-rng-default-device
    pass


# Negatives.
with torch.random.fork_rng(device_type="xpu"):
    pass
