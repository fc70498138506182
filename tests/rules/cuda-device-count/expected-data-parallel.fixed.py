# devport-test: rules=all
"""`nn.DataParallel` is CUDA code in what a check guards: it scatters with torch._C._scatter,
which only CUDA builds register, and wraps nothing on a Mac (tianshou's DataParallelNet)."""
import torch
from torch import nn
from torch.nn.parallel import DistributedDataParallel


def wrap(model):
    if torch.cuda.device_count() > 1:  # expect: cuda-device-count:report -- DataParallel stays CUDA's
        model = nn.DataParallel(model)
    return model


def wrap_ddp(model, rank):
    if torch.accelerator.device_count() > 1:  # expect: cuda-device-count:safe -- DDP runs on any backend
        model = DistributedDataParallel(model)
    return model
