import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh


with torch.amp.autocast(torch.accelerator.current_accelerator().type):  # expect: cuda-amp-autocast
    pass
with torch.amp.autocast(torch.accelerator.current_accelerator().type, dtype=torch.bfloat16):  # expect: cuda-amp-autocast
    pass
with torch.amp.autocast(torch.accelerator.current_accelerator().type, dtype=torch.bfloat16):  # expect: cuda-amp-autocast -- by its module's name
    pass
with torch.amp.autocast(torch.accelerator.current_accelerator().type, enabled=False):  # expect: cuda-amp-autocast
    pass
with torch.amp.autocast(torch.accelerator.current_accelerator().type, enabled=use_amp):  # expect: cuda-amp-autocast
    pass


@torch.amp.autocast(torch.accelerator.current_accelerator().type)  # expect: cuda-amp-autocast
def forward(x):
    return x


def run(ae_kwargs):
    # generative-models' main.py: the keywords spread from a dict.
    with torch.amp.autocast(torch.accelerator.current_accelerator().type, **ae_kwargs):  # expect: cuda-amp-autocast
        pass
    with torch.amp.autocast(torch.accelerator.current_accelerator().type, enabled=True, **ae_kwargs):  # expect: cuda-amp-autocast
        pass


# Negatives.
with torch.autocast("cuda"):
    pass
with torch.amp.autocast("cuda"):
    pass
