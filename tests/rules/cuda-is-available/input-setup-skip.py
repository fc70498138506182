# devport-test: rules=all
"""A check in a test class's set-up whose other branch skips (torchrec's metric tests): it guards
every test of the class, which runs on a Mac once the check admits every accelerator."""
import unittest

import torch
import torch.distributed as dist


class MetricDistributedTest(unittest.TestCase):
    def setUp(self) -> None:
        if torch.cuda.is_available():  # expect: cuda-is-available:unsafe -- its tests use NCCL
            self.device = torch.device("cuda")
        else:
            self.skipTest("CUDA required for distributed test")

    def test_gather_state(self) -> None:
        dist.init_process_group(backend="nccl", rank=0, world_size=1)
        t = torch.ones(2, device=self.device)
        dist.all_reduce(t)


class NegatedSkipTest(unittest.TestCase):
    def setUp(self) -> None:
        if not torch.cuda.is_available():  # expect: cuda-is-available:report -- its tests sync CUDA
            self.skipTest("needs CUDA")

    def test_sync(self) -> None:
        torch.cuda.nvtx.range_push("x")


class CleanSkipTest(unittest.TestCase):
    def setUp(self) -> None:
        if not torch.cuda.is_available():  # expect: cuda-is-available:safe -- its tests port
            self.skipTest("needs an accelerator")
        self.device = torch.device("cuda")

    def test_ones(self) -> None:
        self.assertEqual(torch.ones(2, device=self.device).sum().item(), 2)


def run(model):
    if torch.cuda.is_available():  # expect: cuda-is-available:report -- the code after it syncs CUDA
        model = model.cuda()
    else:
        return None
    torch.cuda.nvtx.range_push("step")
    return model
