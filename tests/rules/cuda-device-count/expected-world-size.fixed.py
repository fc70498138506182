# devport-test: rules=all
"""A test class's `world_size` from a device count (torchtitan's FSDP tests): with 0 the harness
starts no process and the test passes without running; ported, an XPU host runs its body."""
import torch
from torch.testing._internal.common_distributed import skip_if_lt_x_gpu
from hypothesis import given, strategies as st
from torch.testing._internal.common_fsdp import FSDPTest


def create_model(dim, device, dtype):
    return torch.nn.Linear(dim, dim).to(device=device, dtype=dtype)


class TestTraceFSDP(FSDPTest):
    @property
    def world_size(self):
        return min(torch.cuda.device_count(), 4)  # expect: cuda-device-count:report -- its tests name CUDA

    def test_llama3_fsdp(self):
        model = create_model(16, "cuda", torch.float32)
        model(torch.randn(4, 16, device=self.rank)).sum().backward()


class TestPortableFSDP(FSDPTest):
    @property
    def world_size(self):
        return torch.accelerator.device_count()  # expect: cuda-device-count:safe -- its tests port

    def test_ones(self):
        self.assertEqual(torch.ones(2).sum().item(), 2)


class TestCountedFSDP(FSDPTest):
    world_size = torch.cuda.device_count()  # expect: cuda-device-count:report -- its tests name CUDA

    def test_range(self):
        torch.cuda.nvtx.range_push("step")


class TestSkippedFSDP(FSDPTest):
    @property
    def world_size(self):
        return min(torch.accelerator.device_count(), 2)  # expect: cuda-device-count:safe -- each test skips on its own

    @skip_if_lt_x_gpu(2)
    def test_range(self):
        torch.cuda.nvtx.range_push("step")


class TestGivenFSDP(FSDPTest):
    @property
    def world_size(self):
        return torch.accelerator.device_count()  # expect: cuda-device-count:unsafe -- a strategy, no skip, gives its test CUDA

    @given(device=st.sampled_from([torch.accelerator.current_accelerator()]))
    def test_ones(self, device):
        self.assertEqual(torch.ones(2, device=device).sum().item(), 2)


class TestWrappedFSDP(FSDPTest):
    @property
    def world_size(self):
        return torch.cuda.device_count()  # expect: cuda-device-count:report -- a name says DataParallel, in any case

    def test_wrapped(self):
        model = wrap_dataparallel(torch.nn.Linear(2, 2))
        self.assertIsNotNone(model)
