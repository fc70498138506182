import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

HAS_CUDA = torch.cuda.is_available() and HAS_TRITON  # expect: keep-cuda-named-flag
TEST_CUDA = torch.cuda.is_available()  # expect: keep-cuda-named-flag
TEST_MULTIGPU = torch.cuda.device_count() >= 2  # expect: keep-cuda-named-flag


# Negatives.
available = torch.cuda.is_available()
n = torch.cuda.device_count()

# Lower-case flags are decided by their uses (cuda-is-available), not kept by name.
use_cuda = torch.cuda.is_available()
has_gpu = torch.cuda.device_count() > 0
TEST_MULTIGPU = TEST_CUDA and torch.cuda.device_count() >= 2  # expect: keep-cuda-named-flag
