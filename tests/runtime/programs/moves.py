# runtime: safe unsafe
"""Moves to a device held in a variable, and the group's backend by enum."""
import os
import socket

import torch
import torch.distributed as dist

with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))


def run(device):
    x = torch.arange(3.0)
    y = x.cuda(device)
    dist.init_process_group(dist.Backend.NCCL, rank=0, world_size=1)
    dist.all_reduce(y)
    print(y.device, y.tolist(), dist.get_backend())
    dist.destroy_process_group()


if torch.cuda.is_available():
    run(torch.device("cuda", 0))
print("ok")
