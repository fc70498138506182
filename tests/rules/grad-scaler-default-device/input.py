import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

scaler = torch.amp.GradScaler()  # expect: grad-scaler-default-device
scaler = torch.amp.GradScaler(init_scale=1024.0)  # expect: grad-scaler-default-device


# Negatives.
scaler = torch.amp.GradScaler("cuda")
scaler = torch.amp.GradScaler(device="cpu")
