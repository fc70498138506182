import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

with torch.autocast("cuda", dtype=torch.bfloat16):  # expect: cuda-device-type-string
    pass
with torch.amp.autocast(device_type="cuda"):  # expect: cuda-device-type-string
    pass
scaler = torch.amp.GradScaler("cuda")  # expect: cuda-device-type-string
with torch.random.fork_rng(devices=[0], device_type="cuda"):  # expect: cuda-device-type-string
    pass


# Negatives.
info = DecorateInfo(unittest.skip("x"), "TestFoo", "test_bar", device_type="cuda")
with torch.autocast("cpu"):
    pass
