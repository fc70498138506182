# devport-test: rules=all
"""torch.cuda's functions reached through other imports (RULES.md, name resolution: `from torch
import cuda`, `import torch.cuda as tc`, `from torch.cuda import NAME`): the review reads them as
their `torch.cuda.` spelling, before a fix and after one, or a Mac passes the ported check and
raises in the memory call."""
import torch
import torch.cuda as tc
from torch import accelerator, cuda
from torch.cuda import empty_cache


def through_module():
    if accelerator.is_available():  # expect: cuda-is-available:unsafe -- MPS has no reset_peak_memory_stats
        accelerator.reset_peak_memory_stats()  # expect: cuda-reset-peak-memory-stats:safe


def through_alias():
    if accelerator.is_available():  # expect: cuda-is-available:unsafe -- MPS has no reset_peak_memory_stats
        accelerator.reset_peak_memory_stats()  # expect: cuda-reset-peak-memory-stats:safe


def through_name():
    if accelerator.is_available():  # expect: cuda-is-available:unsafe -- MPS has no reset_peak_memory_stats
        accelerator.reset_peak_memory_stats()  # expect: cuda-reset-peak-memory-stats:safe


def ported_through_module():
    if accelerator.is_available():  # expect: cuda-is-available:unsafe -- MPS has no empty_cache
        accelerator.empty_cache()


def not_torch(cache):
    # Negative: a method of the project's own object named like torch's.
    if accelerator.is_available():  # expect: cuda-is-available:safe
        cache.accelerator.empty_cache()
