# runtime: safe unsafe
"""The device module as a value, by getattr, and the helpers that work on it."""
import torch


def backend_module():
    return getattr(torch, "cuda")


if torch.cuda.is_available():
    mod = torch.cuda
    print(mod.device_count() >= 1, backend_module().is_available())
    x = torch.ones(2, device="cuda")
    with torch.cuda.device_of(x):
        print(torch.cuda.current_device())
    torch.cuda.init()
    torch.cuda.reset_accumulated_memory_stats()
    torch.cuda.reset_peak_memory_stats()
print("ok")
