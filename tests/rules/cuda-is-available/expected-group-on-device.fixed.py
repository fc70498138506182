# devport-test: rules=all
"""Guarded code that hands device tensors to a process group (docs/safety.md).

On a Mac the ported check lets it run with MPS tensors, and no backend takes them:
`dist.get_default_backend_for_device("mps")` is gloo, which takes CPU and CUDA tensors only.
"""
import unittest

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.fsdp import FullyShardedDataParallel
from torch.distributed.fsdp import FullyShardedDataParallel as FSDP
from torch.nn.parallel import DistributedDataParallel as DDP
from torch.nn.parallel import DistributedDataParallel as NativeDDP
from torch.nn.parallel import DistributedDataParallel as Wrapper
from fairscale.nn.data_parallel import ShardedDataParallel as ShardedDDP


class TestGroups(unittest.TestCase):
    @unittest.skipIf(not torch.accelerator.is_available(), "needs CUDA")  # expect: cuda-is-available:unsafe -- process group
    def test_ddp_group(self):
        dist.init_process_group(dist.get_default_backend_for_device(torch.accelerator.current_accelerator()), init_method="tcp://127.0.0.1:29500", rank=0, world_size=1)  # expect: nccl-backend:safe
        model = DDP(torch.nn.Linear(2, 2).to(device=torch.accelerator.current_accelerator()))  # expect: cuda-method:safe
        model(torch.ones(1, 2).to(device=torch.accelerator.current_accelerator()))  # expect: cuda-method:safe
        dist.destroy_process_group()

    # Negative: two devices; a Mac has one MPS device and stays skipped.
    @unittest.skipIf(torch.accelerator.device_count() < 2, "needs two GPUs")  # expect: cuda-device-count:safe
    def test_ddp_two(self):
        dist.init_process_group(dist.get_default_backend_for_device(torch.accelerator.current_accelerator()), init_method="tcp://127.0.0.1:29501", rank=0, world_size=1)  # expect: nccl-backend:safe
        model = DDP(torch.nn.Linear(2, 2).to(device=torch.accelerator.current_accelerator()))  # expect: cuda-method:safe
        dist.destroy_process_group()

    # Negative: a group on CPU tensors runs anywhere.
    @unittest.skipIf(not torch.accelerator.is_available(), "needs CUDA")  # expect: cuda-is-available:safe
    def test_cpu_group(self):
        dist.init_process_group(dist.get_default_backend_for_device(torch.accelerator.current_accelerator()), init_method="tcp://127.0.0.1:29502", rank=0, world_size=1)  # expect: nccl-backend:safe
        torch.accelerator.synchronize()  # expect: cuda-synchronize:safe
        dist.destroy_process_group()


def wrap(model):
    # The group is made elsewhere; DDP is handed the module the fix moves.
    if torch.accelerator.is_available():  # expect: cuda-is-available:unsafe -- process group
        model = DDP(model.to(device=torch.accelerator.current_accelerator()))  # expect: cuda-method:safe
    return model


def wrap_sharded(model):
    # FSDP moves the module to the current accelerator itself.
    if torch.accelerator.is_available():  # expect: cuda-is-available:unsafe -- process group
        model = FullyShardedDataParallel(model, device_id=torch.accelerator.current_device_index())  # expect: cuda-current-device:safe
    return model


def wrap_alias(model):
    if torch.accelerator.device_count() > 0:  # expect: cuda-device-count:unsafe -- process group
        model = FSDP(model)
    return model


def wrap_mesh(model):
    # A mesh of the accelerator: DDP's group is the mesh's.
    if torch.accelerator.is_available():  # expect: cuda-is-available:unsafe -- device mesh
        mesh = init_device_mesh(torch.accelerator.current_accelerator().type, (1,))  # expect: cuda-device-mesh:safe
        model = DDP(model, device_mesh=mesh)
    return model


def wrap_many(model):
    # Negative: more than one device.
    if torch.accelerator.device_count() > 1:  # expect: cuda-device-count:safe
        model = FSDP(model)
    return model


def describe():
    # Negative: the name in a message is no group.
    if torch.accelerator.is_available():  # expect: cuda-is-available:safe
        print("FullyShardedDataParallel and DDP are available")


def skip_if_lt_x_gpu(n):
    def decorator(f):
        return f

    return decorator


class TestStaysSkippedOnAMac(unittest.TestCase):
    # Negative: PyTorch's helper asks CUDA, HPU or XPU for a device; a Mac stays skipped.
    @skip_if_lt_x_gpu(1)
    @unittest.skipIf(not torch.accelerator.is_available(), "needs CUDA")  # expect: cuda-is-available:safe
    def test_ddp_helper(self):
        model = DDP(torch.nn.Linear(2, 2).to(device=torch.accelerator.current_accelerator()))  # expect: cuda-method:safe
        model(torch.ones(1, 2).to(device=torch.accelerator.current_accelerator()))  # expect: cuda-method:safe

    # Negative: NCCL is missing on a Mac, and no rule ports that check.
    @unittest.skipUnless(
        torch.accelerator.is_available() and dist.is_available() and dist.is_nccl_available(),  # expect: cuda-is-available:safe
        "needs NCCL",
    )
    def test_ddp_backend_check(self):
        model = DDP(torch.nn.Linear(2, 2).to(device=torch.accelerator.current_accelerator()))  # expect: cuda-method:safe
        model(torch.ones(1, 2).to(device=torch.accelerator.current_accelerator()))  # expect: cuda-method:safe


def asserted(model):
    # Negative: a Mac failed the assert before.
    assert torch.accelerator.is_available()  # expect: cuda-is-available:safe
    return DDP(model.to(device=torch.accelerator.current_accelerator()))  # expect: cuda-method:safe


class TestWorldSize(unittest.TestCase):
    # The number of processes its tests start: none on a Mac before, one after.
    @property
    def world_size(self):
        return min(2, torch.accelerator.device_count())  # expect: cuda-device-count:unsafe

    def test_sharded(self):
        FSDP(torch.nn.Linear(2, 2))


class TestWorldSizeSkipped(unittest.TestCase):
    # Negative: its tests all skip on a Mac, and the helper runs in them only (PyTorch's FSDP tests).
    @property
    def world_size(self):
        return min(2, torch.accelerator.device_count())  # expect: cuda-device-count:safe

    @skip_if_lt_x_gpu(2)
    def test_sharded(self):
        self.run_subtests({"x": [1]}, self._test_sharded)

    def _test_sharded(self, x):
        FSDP(torch.nn.Linear(2, 2))


def dummy_all_reduce():
    # fairseq's distributed_init: the group's backend is the user's (gloo with --cpu).
    if torch.accelerator.is_available():  # expect: cuda-is-available:unsafe -- process group
        dist.all_reduce(torch.zeros(1).to(device=torch.accelerator.current_accelerator()))  # expect: cuda-method:safe


def not_collectives(x):
    # Negative: numpy's broadcast and functools' reduce are no collectives.
    import functools

    import numpy as np

    if torch.accelerator.is_available():  # expect: cuda-is-available:safe
        x = x.to(device=torch.accelerator.current_accelerator())  # expect: cuda-method:safe
        np.broadcast(1, 2)
        functools.reduce(max, [1, 2])
    return x


class Vocoder(torch.nn.Module):
    # fairseq's CodeHiFiGANVocoder: a checkpoint saved on CUDA loads back to CUDA.
    def __init__(self, path):
        super().__init__()
        self.model = torch.nn.Linear(4, 4)
        if torch.accelerator.is_available():  # expect: cuda-is-available:unsafe -- map_location
            state = torch.load(path)
        else:
            state = torch.load(path, map_location=torch.device("cpu"))
        self.model.load_state_dict(state)


def load_where(path):
    # Negative: the load says where its tensors go.
    if torch.accelerator.is_available():  # expect: cuda-is-available:safe
        return torch.load(path, map_location="cpu")
    return None


def round_trip(path, model):
    # Negative: it loads what it saved, where it was.
    if torch.accelerator.is_available():  # expect: cuda-is-available:safe
        model = model.to(device=torch.accelerator.current_accelerator())  # expect: cuda-method:safe
        torch.save(model.state_dict(), path)
        model.load_state_dict(torch.load(path))
    return model


def wrap_native(model):
    # timm's train.py: `DistributedDataParallel as NativeDDP`.
    if torch.accelerator.is_available():  # expect: cuda-is-available:unsafe -- process group
        model = NativeDDP(model.to(device=torch.accelerator.current_accelerator()))  # expect: cuda-method:safe
    return model


def wrap_sharded_alias(model, optimizer):
    # fairscale's tests: `ShardedDataParallel as ShardedDDP`.
    if torch.accelerator.is_available():  # expect: cuda-is-available:unsafe -- process group
        model = ShardedDDP(model.to(device=torch.accelerator.current_accelerator()), optimizer)  # expect: cuda-method:safe
    return model


def is_ddp(model):
    return isinstance(model, DDP)


def wrap_checked(model):
    # Negative: a function whose name ends in ddp, not imported as a wrapper.
    if torch.accelerator.is_available():  # expect: cuda-is-available:safe
        model = model.to(device=torch.accelerator.current_accelerator())  # expect: cuda-method:safe
        print(is_ddp(model))
    return model


def wrap_other_alias(model):
    # Not followed: an alias that names no DDP (the region scan keeps the lines that say ddp or
    # fsdp, and the review reads what it keeps).
    if torch.accelerator.is_available():  # expect: cuda-is-available:safe
        model = Wrapper(model.to(device=torch.accelerator.current_accelerator()))  # expect: cuda-method:safe
    return model


def reduce_on(device):
    y = torch.arange(3.0).to(device=device)  # expect: cuda-method-to-device:safe
    dist.init_process_group(dist.get_default_backend_for_device(torch.accelerator.current_accelerator()), rank=0, world_size=1)  # expect: nccl-backend-enum:safe
    dist.all_reduce(y)


def reduce_main():
    # The group and the tensors are in the function the guarded code calls; once the fixes port
    # them, the guard must still say so (a second round read ported code).
    if torch.accelerator.is_available():  # expect: cuda-is-available:unsafe -- gloo gets MPS tensors on a Mac
        reduce_on(torch.device(torch.accelerator.current_accelerator().type, 0))  # expect: cuda-device-index:safe
