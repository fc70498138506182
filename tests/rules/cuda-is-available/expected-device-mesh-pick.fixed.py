# devport-test: rules=all
"""A device type picked by the check that makes a device mesh (axolotl's expert-parallel plugin).

Where the check picked "cpu", a Mac made a CPU mesh on a gloo group; ported, it makes an "mps" mesh,
which DeviceMesh cannot set up (torch.mps has no is_initialized) and whose gloo group takes CPU and
CUDA tensors only.
"""
import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh


def resolve_ep_group(ep_size, dp_shard_size):
    mesh = init_device_mesh(
        torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu",  # expect: cuda-is-available:unsafe -- mesh
        (ep_size, dp_shard_size),
        mesh_dim_names=("ep", "dp_shard"),
    )
    return mesh["ep"].get_group()


def through_a_name(world_size):
    device_type = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"  # expect: cuda-is-available:unsafe -- mesh
    return init_device_mesh(device_type, (world_size,))


def by_keyword(ranks):
    return DeviceMesh(device_type=torch.accelerator.current_accelerator().type if not not torch.accelerator.is_available() else "cpu", mesh=ranks)  # expect: cuda-is-available:unsafe -- mesh


def through_the_module(world_size):
    dev = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"  # expect: cuda-is-available:unsafe -- mesh
    return dist.init_device_mesh(device_type=dev, mesh_shape=(world_size,))


# Negatives.
def tensors_only(x):
    dev = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"  # expect: cuda-is-available:safe
    return x.to(dev)


def mesh_of_its_own(x, world_size):
    # The picked device moves tensors; the mesh's type is another value.
    dev = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"  # expect: cuda-is-available:safe
    mesh = init_device_mesh("cpu", (world_size,))
    return x.to(dev), mesh
