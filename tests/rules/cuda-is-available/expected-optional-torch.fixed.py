# devport-test: rules=all
"""A module that imports torch only where it can (composer's collect_env.py, the optional torch of a
library that also runs without it): a fix that needs `import torch` adds it at the top, and then
the module no longer imports without torch installed."""
import torch
try:
    import torch.utils.collect_env as torchenv
    TORCH_AVAILABLE = True
except ImportError:
    TORCH_AVAILABLE = False


def device_count_or_zero():
    return (
        torch.accelerator.device_count()  # expect: cuda-device-count:unsafe -- adds import torch to a module that imports it only in a try
        if torch.accelerator.is_available()  # expect: cuda-is-available:unsafe
        else 0
    )


def lazily():
    # A function's own import binds torch where the fix goes: nothing to add.
    import torch

    return torch.accelerator.is_available()  # expect: cuda-is-available:safe
