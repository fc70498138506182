import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

dev_type = detect_device_type() or "cuda"  # expect: cuda-device-fallback


# Negatives.
dev_type = detect_device_type() or "cpu"
