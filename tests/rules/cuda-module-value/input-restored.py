"""unsloth's tests: torch.cuda stubbed for the block under test, then the real one put back."""
import types

import torch


def _run(fn, bf16_supported):
    real_cuda = torch.cuda  # expect: cuda-module-value:report -- what the finally puts back
    torch.cuda = types.SimpleNamespace(is_bf16_supported=lambda: bf16_supported)
    try:
        return fn()
    finally:
        torch.cuda = real_cuda


def negatives():
    same = torch.cuda == real_cuda  # a comparison, no assignment
    return same
