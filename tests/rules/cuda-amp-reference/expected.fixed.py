"""`torch.cuda.amp.autocast` and `GradScaler` bound for later calls: found, no fix (docs/rules/cuda-amp-reference.md)."""
import functools
from functools import partial
from unittest import mock

import torch
from torch.cuda.amp import GradScaler, autocast


def linear_eval(model, x, autocast_dtype):
    # DINOv2's linear evaluation: the context is built once and entered per batch.
    autocast_ctx = partial(torch.cuda.amp.autocast, enabled=True, dtype=autocast_dtype)  # expect: cuda-amp-reference
    with autocast_ctx():
        return model(x)


def runner(amp):
    # torch_xla's torchbench runner binds the context manager to a name.
    autocast_fn = torch.cuda.amp.autocast  # expect: cuda-amp-reference
    scaler_cls = functools.partial(GradScaler, init_scale=2.0**16)  # expect: cuda-amp-reference
    bf16 = partial(autocast, dtype=torch.bfloat16)  # expect: cuda-amp-reference
    return autocast_fn, scaler_cls, bf16


# Negatives: the calls are cuda-amp-autocast's and cuda-amp-grad-scaler's; a table of each
# device's autocast, an identity test, a per-release choice, strings, docstrings and the
# device-agnostic forms are not rewritten references.
with torch.cuda.amp.autocast():
    pass
scaler = torch.cuda.amp.GradScaler()
ctx = partial(torch.amp.autocast, "cuda", dtype=torch.bfloat16)
AUTOCASTS = [torch.cuda.amp.autocast, torch.cpu.amp.autocast]
patched = mock.patch("torch.cuda.amp.autocast")


def pick(func, new):
    arg = "cuda" if func is torch.cuda.amp.autocast else "cpu"
    scaler_cls = torch.amp.GradScaler if new else torch.cuda.amp.GradScaler
    return arg, scaler_cls


def documented():
    """Runs under torch.cuda.amp.autocast when CUDA is there."""
    return torch.amp.GradScaler
