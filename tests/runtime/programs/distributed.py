# runtime: safe unsafe
"""A one-process group on the accelerator's backend, else gloo."""
import os
import socket

import torch
import torch.distributed as dist

with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
os.environ["MASTER_PORT"] = str(port)


def main():
    backend = "nccl" if torch.cuda.is_available() else "gloo"
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    dist.init_process_group(backend=backend, rank=0, world_size=1)
    t = torch.arange(4.0, device=device)
    dist.all_reduce(t)
    print(dist.get_backend(), t.device.type, t.tolist())
    dist.destroy_process_group()


main()
