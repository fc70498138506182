# devport-test: rules=all
"""A unittest module that stops without CUDA (PyTorch's test_cuda.py does so)."""
import sys
import unittest

import torch

if not torch.cuda.is_available():
    print("CUDA not available, skipping tests", file=sys.stderr)
    TestCase = object  # noqa: F811
else:
    TestCase = unittest.TestCase


class TestMemory(TestCase):
    def test_device_as_key(self):
        cache = {torch.device("cuda"): 1}  # expect: cuda-device-call:safe -- the module's tests need CUDA
        self.assertEqual(len(cache), 1)
