import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

from torch.testing._internal.common_utils import TEST_CUDA
from torch.testing._internal.common_cuda import TEST_MULTIGPU

if TEST_CUDA:  # expect: cuda-test-flag
    pass
skip = unittest.skipIf(not TEST_MULTIGPU, "needs 2 GPUs")  # expect: cuda-test-flag


# Negatives.
TEST_CUDA = True
if TEST_CUDNN:
    pass
