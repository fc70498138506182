# devport-test: rules=all
"""`import torch as th` (stable-baselines3's spelling): the review reads the code a guard guards
through torch's alias as it reads it through `torch`, before a fix and after one (the fixes spell
torch so too), or a Mac passes the ported check and raises."""
import numpy as np
import torch as th
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def peak():
    if th.cuda.is_available():  # expect: cuda-is-available:unsafe -- MPS has no reset_peak_memory_stats
        th.cuda.reset_peak_memory_stats()  # expect: cuda-reset-peak-memory-stats:safe
    return 0


def peak_ported():
    if th.cuda.is_available():  # expect: cuda-is-available:unsafe -- MPS has no max_memory_allocated
        return th.accelerator.max_memory_allocated()
    return 0


def wrap(model):
    if th.cuda.is_available():  # expect: cuda-is-available:unsafe -- gloo gets MPS parameters on a Mac
        model = model.to(th.device("cuda"))  # expect: cuda-device-call:safe
        model = DDP(model)
    return model


def wrap_ported(model):
    if th.cuda.is_available():  # expect: cuda-is-available:unsafe -- gloo gets MPS parameters on a Mac
        model = model.to(th.accelerator.current_accelerator())
        model = DDP(model)
    return model


def reduce_ported(t):
    if th.cuda.is_available():  # expect: cuda-is-available:unsafe -- gloo gets MPS tensors on a Mac
        dist.init_process_group(dist.get_default_backend_for_device(th.accelerator.current_accelerator()))
        t = t.to(device=th.accelerator.current_accelerator().type + ":0")
        dist.all_reduce(t)
    return t


def float64_guard():
    t = th.zeros(3, dtype=th.double)
    if th.cuda.is_available():  # expect: cuda-is-available:unsafe -- MPS has no float64
        t = t.to(th.device("cuda"))  # expect: cuda-device-call:safe
    return t


def load_guard(model, path):
    if th.cuda.is_available():  # expect: cuda-is-available:unsafe -- CUDA tensors load back to CUDA
        model.load_state_dict(th.load(path))
        model = model.to(th.device("cuda"))  # expect: cuda-device-call:safe
    return model


def plain(x):
    # Negative: nothing here that another accelerator lacks.
    if th.cuda.is_available():  # expect: cuda-is-available:safe
        x = x.to(th.device("cuda"))  # expect: cuda-device-call:safe
    return x * 2


def not_torch(x):
    # Negative: `np.accelerator` is no torch name.
    if th.cuda.is_available():  # expect: cuda-is-available:safe
        x = x.to(th.device("cuda"))  # expect: cuda-device-call:safe
        np.accelerator.empty_cache()
    return x
