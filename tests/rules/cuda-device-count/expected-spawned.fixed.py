# devport-test: rules=all
"""A function that guarded code hands to a call runs where the call runs (opacus's multi-GPU
tests start their worker with mp.spawn): its CUDA code is the guard's."""
import threading
import unittest

import torch
import torch.multiprocessing as mp


def worker(rank, world_size):
    x = torch.ones(4, 4, device=torch.accelerator.current_accelerator().type + ":" + str(rank))
    with torch.amp.autocast(torch.accelerator.current_accelerator().type, dtype=torch.bfloat16):
        assert torch.mm(x, x).dtype == torch.bfloat16


def sync():
    torch.cuda.nvtx.range_push("sync")


class MultiGPUTest(unittest.TestCase):
    @unittest.skipIf(torch.accelerator.device_count() < 2, "Need at least 2 GPUs")  # expect: cuda-device-count:unsafe -- the worker's autocast ports only unsafely
    def test_mixed_precision(self):
        mp.spawn(worker, args=(2,), nprocs=2, join=True)


def start():
    if torch.cuda.device_count() > 0:  # expect: cuda-device-count:report -- the thread's target is CUDA's
        threading.Thread(target=sync).start()
