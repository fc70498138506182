import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

from torch.cuda.amp import autocast

with torch.cuda.amp.autocast():  # expect: cuda-amp-autocast
    pass
with torch.cuda.amp.autocast(dtype=torch.bfloat16):  # expect: cuda-amp-autocast
    pass
with torch.cuda.amp.autocast_mode.autocast(dtype=torch.bfloat16):  # expect: cuda-amp-autocast -- by its module's name
    pass
with torch.cuda.amp.autocast(False):  # expect: cuda-amp-autocast
    pass
with autocast(enabled=use_amp):  # expect: cuda-amp-autocast
    pass


@torch.cuda.amp.autocast()  # expect: cuda-amp-autocast
def forward(x):
    return x


def run(ae_kwargs):
    # generative-models' main.py: the keywords spread from a dict.
    with torch.cuda.amp.autocast(**ae_kwargs):  # expect: cuda-amp-autocast
        pass
    with torch.cuda.amp.autocast(enabled=True, **ae_kwargs):  # expect: cuda-amp-autocast
        pass


# Negatives.
with torch.autocast("cuda"):
    pass
with torch.amp.autocast("cuda"):
    pass
