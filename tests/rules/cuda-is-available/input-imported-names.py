# devport-test: rules=all
"""Names imported from torch.cuda at module level are CUDA code in the guards that use them."""
import unittest

import torch
from torch.cuda.amp import GradScaler


class TestAmpWrapper(unittest.TestCase):
    # mmengine's AmpOptimWrapper tests: the wrapper asserts CUDA (or NPU, MLU) when built, and
    # the test checks for CUDA's GradScaler. Ported, a Mac would run the test and fail it.
    @unittest.skipIf(not torch.cuda.is_available(), reason="`torch.cuda.amp` needs CUDA")  # expect: cuda-is-available:report -- GradScaler is torch.cuda.amp's
    def test_init(self):
        wrapper = make_wrapper()
        self.assertIsInstance(wrapper.scaler, GradScaler)

    @unittest.skipIf(not torch.cuda.is_available(), reason="no CUDA")  # expect: cuda-is-available:safe
    def test_plain(self):
        self.assertEqual(torch.zeros(1).sum(), 0)


def make_wrapper():
    return None
