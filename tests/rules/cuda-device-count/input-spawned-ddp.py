# devport-test: rules=all
"""pytorch/examples' ddp-tutorial-series/multigpu.py: the device count is the number of
processes; each wraps its model in DDP with `device_ids=[rank]`, the model moved there by an
index (`.to(rank)`). On a Mac the count was 0 and nothing ran; ported, one process runs DDP on a
gloo group (the ported backend) with the model on MPS, which gloo does not take."""
import os

import torch
import torch.multiprocessing as mp
from torch.distributed import destroy_process_group, init_process_group
from torch.nn.parallel import DistributedDataParallel as DDP


def ddp_setup(rank, world_size):
    os.environ["MASTER_ADDR"] = "localhost"
    torch.cuda.set_device(rank)
    init_process_group(backend="nccl", rank=rank, world_size=world_size)


def main(rank, world_size):
    ddp_setup(rank, world_size)
    model = torch.nn.Linear(20, 1).to(rank)
    model = DDP(model, device_ids=[rank])
    model(torch.randn(4, 20).to(rank)).sum().backward()
    destroy_process_group()


if __name__ == "__main__":
    world_size = torch.cuda.device_count()  # expect: cuda-device-count:unsafe -- DDP with device_ids on the ported group
    mp.spawn(main, args=(world_size,), nprocs=world_size)
