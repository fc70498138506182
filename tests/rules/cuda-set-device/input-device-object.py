# devport-test: rules=all
"""A `torch.cuda.device` object as the device: torch.cuda's functions read its index, while
torch.accelerator's take an int, a str or a torch.device only (`set_device_index` raises
ValueError, on CUDA too; `synchronize` reads it as the current device). nanotron's
ParallelContext: `torch.cuda.set_device(torch.cuda.device(device_id))`."""
import os

import torch


class ParallelContext:
    def set_device(self):
        device_id = int(os.getenv("LOCAL_RANK", "0"))
        torch.cuda.set_device(torch.cuda.device(device_id))  # expect: cuda-set-device:report


def wait(rank):
    torch.cuda.synchronize(torch.cuda.device(rank))  # cuda-synchronize: no fix either


# Negatives: an index, a torch.device; the device object in a `with`.
def plain(rank):
    torch.cuda.set_device(rank)  # expect: cuda-set-device:safe
    torch.cuda.set_device(torch.device("cuda", rank))  # expect: cuda-set-device:safe
    with torch.cuda.device(rank):
        torch.cuda.set_device(rank)  # expect: cuda-set-device:safe
