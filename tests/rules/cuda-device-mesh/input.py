import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

mesh = init_device_mesh("cuda", (2, 4))  # expect: cuda-device-mesh
mesh = init_device_mesh(
    "cuda",  # expect: cuda-device-mesh
    (8,),
    mesh_dim_names=("dp",),
)
mesh = DeviceMesh(device_type="cuda", mesh=list(range(4)))  # expect: cuda-device-mesh


# Negatives.
mesh = init_device_mesh("cpu", (2,))
mesh = init_device_mesh(device_type, (2,))
