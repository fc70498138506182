import os
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

dist.init_process_group("nccl", rank=r, world_size=n)  # expect: nccl-backend
dist.init_process_group(
    backend="nccl",  # expect: nccl-backend
    rank=r,
)
pg = torch.distributed.new_group(ranks, backend='nccl')  # expect: nccl-backend
pg2, _ = dist.new_subgroups_by_enumeration(ranks_list, backend='nccl')  # expect: nccl-backend -- Megatron-LM's bridge communicator
subs, _ = torch.distributed.new_subgroups(group_size=2, backend="nccl")  # expect: nccl-backend
backend = "nccl" if torch.cuda.is_available() else "gloo"  # expect: nccl-backend
self.backend = "nccl"  # expect: nccl-backend


# Negatives.
dist.init_process_group("gloo")
if backend == "nccl":
    pass
name = "nccl"
os.environ["NCCL_DEBUG"] = "INFO"


class NeoXArgs:
    # gpt-neox's arguments: an annotated field, read when the run starts.
    distributed_backend: str = "nccl"  # expect: nccl-backend:unsafe -- class level runs when the class is defined
    backend_timeout: int = 30


def launch():
    backend: str = "nccl"  # expect: nccl-backend:safe
    mode: str = "nccl"
    return backend, mode


if torch.distributed.is_available():
    # thunder's distributed test helper: torch.distributed is there on a CPU-only build too.
    class DistributedHelper:
        DISTRIBUTED_BACKEND = "nccl"  # expect: nccl-backend:unsafe -- class level, distributed is no accelerator


def compile_backend(model):
    # Negative: another value of a backend= keyword.
    return torch.compile(model, backend="inductor")


def other_libraries(WeightTransferConfig):
    # Negatives: another library's backend option, a config dict that stores the value.
    config = WeightTransferConfig(backend="nccl")
    return config, dict(backend="nccl")
