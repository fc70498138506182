# devport-test: rules=all
"""A module that imports torch only where it can (composer's collect_env.py, the optional torch of a
library that also runs without it): a fix that needs `import torch` adds it at the top, and then
the module no longer imports without torch installed."""
try:
    import torch.utils.collect_env as torchenv
    from torch.cuda import device_count as cuda_device_count
    from torch.cuda import is_available as cuda_available
    TORCH_AVAILABLE = True
except ImportError:
    TORCH_AVAILABLE = False


def device_count_or_zero():
    return (
        cuda_device_count()  # expect: cuda-device-count:unsafe -- adds import torch to a module that imports it only in a try
        if cuda_available()  # expect: cuda-is-available:unsafe
        else 0
    )


def lazily():
    # A function's own import binds torch where the fix goes: nothing to add.
    import torch

    return torch.cuda.is_available()  # expect: cuda-is-available:safe
