import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

from torch.testing._internal.common_distributed import requires_nccl


@requires_nccl()  # expect: cuda-test-requires-nccl
def test_allreduce(self):
    pass


# Negatives.
@requires_nccl_version((2, 17), "needs NCCL 2.17")
def test_new(self):
    pass
