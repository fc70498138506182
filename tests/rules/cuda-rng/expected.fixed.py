import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

torch.get_device_module().manual_seed(0)  # expect: cuda-rng
torch.get_device_module().manual_seed_all(seed)  # expect: cuda-rng
state = torch.get_device_module().get_rng_state()  # expect: cuda-rng
torch.get_device_module().set_rng_state(state, device=1)  # expect: cuda-rng
states = torch.get_device_module().get_rng_state_all()  # expect: cuda-rng


# Negatives.
torch.manual_seed(0)
torch.cuda.synchronize_all = 1
torch.cuda.manual_seeds(0)
state["torch.cuda"] = 1
