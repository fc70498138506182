# devport-test: rules=all
"""A capability query later in a chain of `and`s runs only where the check let it (torchao's skips)."""
import unittest

import torch


class T(unittest.TestCase):
    def test_bf16(self, dtype=torch.bfloat16):
        if (
            torch.cuda.is_available()  # expect: cuda-is-available:report -- get_device_capability() would run on a Mac
            and dtype == torch.bfloat16
            and torch.cuda.get_device_capability() < (8, 0)
        ):
            self.skipTest("needs sm80")
        assert dtype is torch.bfloat16


def flags(dtype):
    return torch.cuda.is_available() and dtype == torch.bfloat16 and torch.cuda.get_device_capability() >= (8, 0)  # expect: cuda-is-available:report
