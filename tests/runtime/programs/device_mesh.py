# runtime: safe unsafe
"""A one-process device mesh on the accelerator."""
import os
import socket

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh

with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), RANK="0", WORLD_SIZE="1")

if torch.cuda.is_available():
    mesh = init_device_mesh("cuda", (1,))
    t = torch.ones(3, device="cuda")
    dist.all_reduce(t)
    print(mesh.device_type, mesh.size(), t.tolist())
    dist.destroy_process_group()
print("ok")
