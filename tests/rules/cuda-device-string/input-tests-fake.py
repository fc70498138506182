# devport-test: rules=all
"""A device string handed to a fake (torchtitan's graph_trainer tests): under a FakeTensorMode a
factory call never touches the device, so the test passed on a CPU-only build, where
torch.accelerator.current_accelerator() is None."""
import unittest

import torch
from torch._subclasses import FakeTensorMode


class TestChunkShapes(unittest.TestCase):
    def test_fake_shapes_keep_strides(self):
        fake_mode = FakeTensorMode(allow_non_fake_inputs=True)
        with fake_mode:
            x = torch.empty(4, 16, device="cuda")  # expect: cuda-device-string:unsafe -- a fake never used the device
            y = x.transpose(0, 1)
        self.assertEqual(y.stride(), (1, 16))

    def test_fake_mode_called(self):
        with FakeTensorMode():
            x = torch.ones(2, device="cuda")  # expect: cuda-device-string:unsafe -- a fake never used the device
        self.assertEqual(x.shape, (2,))

    def test_real_after_fake(self):
        with FakeTensorMode():
            x = torch.ones(2, device="cuda")  # expect: cuda-device-string:safe -- the real tensor below needed CUDA before
        y = torch.ones(2, device="cuda")  # expect: cuda-device-string:safe -- it used the device
        self.assertEqual(x.shape, y.shape)

    def test_real(self):
        with torch.no_grad():
            x = torch.ones(2, device="cuda")  # expect: cuda-device-string:safe -- it used the device
        self.assertEqual(x.shape, (2,))
