import torch
import torch.distributed as dist
import torch.distributed.device_mesh
from torch.distributed import init_device_mesh as make_mesh
from torch.distributed import DeviceMesh


def setup(world_size):
    mesh = dist.init_device_mesh(torch.accelerator.current_accelerator().type, (world_size,))  # expect: cuda-device-mesh:safe -- same value on CUDA; the mesh already needed an accelerator
    mesh = torch.distributed.device_mesh.init_device_mesh(torch.accelerator.current_accelerator().type, (2, 4))  # expect: cuda-device-mesh:safe
    mesh = torch.distributed.init_device_mesh(device_type=torch.accelerator.current_accelerator().type, mesh_shape=(8,))  # expect: cuda-device-mesh:safe
    mesh = make_mesh(
        torch.accelerator.current_accelerator().type,  # expect: cuda-device-mesh:safe -- a multi-line call through an alias
        (2, 2),
        mesh_dim_names=("dp", "tp"),
    )
    mesh = DeviceMesh(torch.accelerator.current_accelerator().type, torch.arange(4))  # expect: cuda-device-mesh:safe
    mesh = dist.DeviceMesh(device_type=torch.accelerator.current_accelerator().type, mesh=[0, 1])  # expect: cuda-device-mesh:safe
    return mesh


def legacy_path(ep_size):
    # torch.distributed._tensor registers device_mesh as an alias of torch.distributed.device_mesh
    # (llm-foundry's MoE set-up, composer, the tensor-parallel examples import it so).
    from torch.distributed._tensor.device_mesh import DeviceMesh as Mesh, init_device_mesh

    mesh = init_device_mesh(torch.accelerator.current_accelerator().type, (ep_size,), mesh_dim_names=("ep",))  # expect: cuda-device-mesh:safe
    return mesh, Mesh(torch.accelerator.current_accelerator().type, [0])  # expect: cuda-device-mesh:safe


# Negatives.
mesh = dist.init_device_mesh("cpu", (2,))
mesh = dist.init_device_mesh(device_type, (2,))
mesh = dist.init_process_group("cuda")  # not a mesh (and not a backend name)
mesh = other.init_device_mesh("cuda", (2,))  # not torch's
# dist.init_device_mesh("cuda", (2,)) in a comment
