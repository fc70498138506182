# devport-test: rules=all
"""A device given to a torch.cuda call is that call's: ported alone it names another device to a
CUDA function; the call's own fix decides."""
import torch


def peaks():
    # torch.cuda.max_memory_allocated returns 0 on a CPU-only build; its fix is unsafe, and so is
    # the device's, which raises there.
    a = torch.cuda.max_memory_allocated(device="cuda:0")  # expect: cuda-device-index-string:unsafe -- the call's fix is unsafe
    b = torch.cuda.memory_stats(device="cuda:1")  # expect: cuda-device-index-string:unsafe
    return a, b


def moves(x):
    return x.to("cuda:0")  # expect: cuda-device-index-string:safe -- not in a torch.cuda call
