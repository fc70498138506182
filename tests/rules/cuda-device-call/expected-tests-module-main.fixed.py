# devport-test: rules=all
"""A module whose tests run only where its `__main__` finds CUDA (PyTorch's inductor tests)."""
import unittest

import torch
from helpers import HAS_CUDA


class TestLayout(unittest.TestCase):
    def test_device_as_key(self):
        cache = {torch.accelerator.current_accelerator(): 1}  # expect: cuda-device-call:safe -- run only where HAS_CUDA holds
        self.assertEqual(len(cache), 1)


if __name__ == "__main__":
    if HAS_CUDA:
        unittest.main()
