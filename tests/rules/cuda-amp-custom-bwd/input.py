import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

class Fn(torch.autograd.Function):
    @staticmethod
    @torch.cuda.amp.custom_bwd  # expect: cuda-amp-custom-bwd
    def backward(ctx, g):
        return g


# Negatives.
@torch.amp.custom_bwd(device_type="cuda")
def b(ctx, g):
    return g
