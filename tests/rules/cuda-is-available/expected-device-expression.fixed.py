# devport-test: rules=all device-expression=get_device()
"""A project's own device (`--device-expression 'get_device()'`): code that says it was ported
already, by hand or by an earlier round or run of `fix`, and the review judges it as the code a
fix ports; a second round or run must not port a guard that the first called unsafe."""
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

from mylib import get_device


def wrap(model):
    if torch.accelerator.is_available():  # expect: cuda-is-available:unsafe -- gloo gets MPS parameters on a Mac
        model = model.to(get_device().type)  # expect: cuda-device-string:safe
        model = DDP(model)
    return model


def wrap_ported(model):
    if torch.accelerator.is_available():  # expect: cuda-is-available:unsafe -- gloo gets MPS parameters on a Mac
        model = model.to(get_device())
        model = DDP(model)
    return model


def reduce_ported(t):
    if torch.accelerator.is_available():  # expect: cuda-is-available:unsafe -- gloo gets MPS tensors on a Mac
        dist.init_process_group(dist.get_default_backend_for_device(get_device()))
        t = t.to(device=get_device().type + ":0")
        dist.all_reduce(t)
    return t


def plain(x):
    # Negative: nothing here that another accelerator lacks.
    if torch.accelerator.is_available():  # expect: cuda-is-available:safe
        x = x.to(get_device())
    return x * 2
