import unittest

import torch
import torch.distributed as dist


def run_training(config_filepath, backend="nccl", with_clearml=True):  # expect: nccl-backend-default -- ignite's references
    dist.init_process_group(backend)


def with_comms(func=None, init_rpc=True, backend="nccl"):  # expect: nccl-backend-default -- PyTorch's sharded-tensor tests
    return func


class ModelParallelTest(unittest.TestCase):
    def setUp(self, backend: str = "nccl") -> None:  # expect: nccl-backend-default -- torchrec's
        dist.init_process_group(backend=backend)

    def init_pg(self, *, process_group_backend: str = 'nccl'):  # expect: nccl-backend-default
        dist.init_process_group(process_group_backend)


async def start(dist_backend="nccl"):  # expect: nccl-backend-default
    dist.init_process_group(dist_backend)


def spawn(
    fn,
    world_size,
    backend="nccl",  # expect: nccl-backend-default -- a multi-line signature
):
    return fn, world_size, backend


# Negatives.
def gloo_default(backend="gloo"):
    return backend


def compile_default(model, backend="inductor"):
    return torch.compile(model, backend=backend)


def named_otherwise(x, library="nccl"):
    # Not a backend parameter: what it names is the caller's business.
    return x


def docstring_only(backend=None):
    """Pass backend="nccl" for GPUs."""
    return backend


def call_site():
    # A call's keyword is nccl-backend's, not a default.
    run_training("cfg.yaml", backend="nccl")

