# devport-test: rules=all
"""A capability query later in a chain of `and`s runs only where the check let it (torchao's skips)."""
import os
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


# diffusers' GGUF quantizer, at import: the check is not the chain's first operand.
can_use_kernels = (
    os.getenv("USE_KERNELS", "false").lower() in ["1", "true", "yes"]
    and torch.cuda.is_available()  # expect: cuda-is-available:report -- the capability query after it would run on a Mac
    and torch.cuda.get_device_capability()[0] >= 7
)


def later_operand(flag):
    return flag and torch.cuda.is_available() and torch.cuda.get_device_capability()[0] >= 7  # expect: cuda-is-available:report


def query_before_the_check(flag):
    # The query runs before the check, wherever it is: the check decides nothing of it.
    return torch.cuda.get_device_capability()[0] >= 7 and torch.accelerator.is_available()  # expect: cuda-is-available:safe
