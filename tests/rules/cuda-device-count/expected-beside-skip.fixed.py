# devport-test: rules=all
"""What the decorators beside a skip give the test (torchrec's hypothesis tests): the skip guards
their values too."""
import unittest

import torch
from hypothesis import given, settings, strategies as st


class TestFused(unittest.TestCase):
    @unittest.skipIf(torch.accelerator.device_count() < 1, "This test requires a gpu")  # expect: cuda-device-count:unsafe -- the strategy beside it gives CUDA
    @settings(deadline=None)
    @given(device=st.sampled_from([torch.accelerator.current_accelerator()]))
    def test_forward(self, device: torch.device) -> None:
        x = torch.ones(4, device=device)
        self.assertEqual(x.sum().item(), 4)

    @unittest.skipIf(torch.accelerator.device_count() < 1, "This test requires a gpu")  # expect: cuda-device-count:safe -- what is beside it is portable
    @settings(deadline=None)
    @given(n=st.integers(1, 4))
    def test_ones(self, n: int) -> None:
        x = torch.ones(n, device=torch.accelerator.current_accelerator())
        self.assertEqual(x.sum().item(), n)
