import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

pg._register_backend(torch.device("cuda"), backend_type, backend_class)  # expect: keep-cuda-backend-registration


# Negatives.
pg._register_backend(torch.device("cpu"), backend_type, backend_class)
