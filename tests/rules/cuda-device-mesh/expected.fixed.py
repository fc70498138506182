import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

mesh = init_device_mesh(torch.accelerator.current_accelerator().type, (2, 4))  # expect: cuda-device-mesh
mesh = init_device_mesh(
    torch.accelerator.current_accelerator().type,  # expect: cuda-device-mesh
    (8,),
    mesh_dim_names=("dp",),
)
mesh = DeviceMesh(device_type=torch.accelerator.current_accelerator().type, mesh=list(range(4)))  # expect: cuda-device-mesh
mesh = DeviceMesh.from_group(group, torch.accelerator.current_accelerator().type)  # expect: cuda-device-mesh
mesh = DeviceMesh.from_group(group, device_type=torch.accelerator.current_accelerator().type, mesh_dim_names=("dp",))  # expect: cuda-device-mesh -- torchtune's RL training
mesh = parallelism_config.build_device_mesh(torch.accelerator.current_accelerator().type)  # expect: cuda-device-mesh -- accelerate's ParallelismConfig, axolotl's


# Negatives.
mesh = init_device_mesh("cpu", (2,))
mesh = init_device_mesh(device_type, (2,))
mesh = DeviceMesh.from_group(group, "cpu")
mesh = self.build_device_mesh()
