import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

scaler = torch.cuda.amp.GradScaler()  # expect: cuda-amp-grad-scaler
scaler = torch.cuda.amp.GradScaler(2.0**16, enabled=use_amp)  # expect: cuda-amp-grad-scaler
scaler = torch.cuda.amp.grad_scaler.GradScaler(enabled=use_amp)  # expect: cuda-amp-grad-scaler -- by its module's name


# Negatives.
scaler = torch.amp.GradScaler("cuda")
scaler = torch.amp.GradScaler(dev) if NEW_TORCH else old_scaler
