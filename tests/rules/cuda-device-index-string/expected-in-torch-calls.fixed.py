# devport-test: rules=all
"""A device given to a torch.cuda call is that call's: ported alone it names another device to a
CUDA function; the call's own fix decides."""
import torch


def peaks():
    # torch.cuda.max_memory_allocated returns 0 on a CPU-only build; its fix is unsafe, and so is
    # the device's, which raises there.
    a = torch.accelerator.max_memory_allocated(torch.accelerator.current_accelerator().type + ":0")  # expect: cuda-device-index-string:unsafe -- the call's fix is unsafe
    b = torch.accelerator.memory_stats(torch.accelerator.current_accelerator().type + ":1")  # expect: cuda-device-index-string:unsafe
    return a, b


def moves(x):
    return x.to(torch.accelerator.current_accelerator().type + ":0")  # expect: cuda-device-index-string:safe -- not in a torch.cuda call
