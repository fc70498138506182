import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

class Fn(torch.autograd.Function):
    @staticmethod
    @torch.amp.custom_fwd(device_type=torch.accelerator.current_accelerator().type)  # expect: cuda-amp-custom-fwd
    def forward(ctx, x):
        return x

    @staticmethod
    @torch.amp.custom_fwd(cast_inputs=torch.float32, device_type=torch.accelerator.current_accelerator().type)  # expect: cuda-amp-custom-fwd
    def forward2(ctx, x):
        return x


# Negatives.
@torch.amp.custom_fwd(device_type="cuda")
def f(ctx, x):
    return x
