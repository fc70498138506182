# devport-test: rules=all
"""`setUp` runs before every test of its class (torchrec's planner and pipeline tests): a device it
stores is a test's device, and a CPU-only CI runs the class's tests that nothing skips."""
import unittest

import torch
from torchrec.distributed.planner.types import Topology


class TestPartitioner(unittest.TestCase):
    def setUp(self) -> None:
        compute_device = "cuda"  # expect: cuda-device-variable:unsafe -- a CPU-only CI runs the class's tests
        self.topology = Topology(world_size=2, compute_device=compute_device)

    def test_world_size(self) -> None:
        self.assertEqual(self.topology.world_size, 2)


class PipelineTest(unittest.TestCase):
    def setUp(self) -> None:
        self.device = torch.device("cuda:0")  # expect: cuda-device-index:unsafe -- test_state_dict runs on a CPU-only CI

    @unittest.skipIf(not torch.cuda.is_available(), "requires a GPU")  # expect: cuda-is-available:safe
    def test_forward(self) -> None:
        x = torch.ones(2).to(self.device)
        self.assertEqual(x.device, self.device)

    def test_state_dict(self) -> None:
        self.assertIn("weight", torch.nn.Linear(2, 2).state_dict())


@unittest.skipIf(not torch.cuda.is_available(), "requires a GPU")  # expect: cuda-is-available:safe
class SkippedPipelineTest(unittest.TestCase):
    def setUp(self) -> None:
        self.device = torch.device("cuda:0")  # expect: cuda-device-index:safe -- the class is skipped without CUDA

    def test_forward(self) -> None:
        x = torch.ones(2).to(self.device)
        self.assertEqual(x.device, self.device)


class UsesDeviceTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls) -> None:
        cls.x = torch.ones(2, device="cuda")  # expect: cuda-device-string:safe -- it used the device

    def test_sum(self) -> None:
        self.assertEqual(self.x.sum().item(), 2)


class GuardedSetUpTest(unittest.TestCase):
    def setUp(self) -> None:
        if torch.cuda.is_available():  # expect: cuda-is-available:safe
            self.device = torch.device("cuda")  # expect: cuda-device-call:safe -- only with CUDA
        else:
            self.device = torch.device("cpu")

    def test_ones(self) -> None:
        self.assertEqual(torch.ones(2, device=self.device).sum().item(), 2)


class DeviceHolder:
    def setUp(self) -> None:
        self.device = torch.device("cuda")  # expect: cuda-device-call:safe -- no test class
