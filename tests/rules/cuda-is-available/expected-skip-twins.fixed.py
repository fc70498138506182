# devport-test: rules=all
"""Two skips of one test asking the same check, one of which keeps CUDA (axolotl's kernel tests)."""
import sys
import unittest

import pytest
import torch

class TestGated(unittest.TestCase):
    @unittest.skipIf(not torch.accelerator.is_available(), "needs CUDA")  # expect: cuda-is-available:unsafe
    @unittest.skipIf(torch.cuda.is_available() and torch.cuda.get_device_capability() < (8, 0), "needs sm80")  # a feature guard, kept
    def test_bf16(self):
        x = torch.ones(2, device=torch.accelerator.current_accelerator().type, dtype=torch.bfloat16)
        self.assertEqual(x.sum().item(), 2)

    # Negatives: another condition beside it; one skip alone.
    @unittest.skipIf(not torch.accelerator.is_available(), "needs CUDA")  # expect: cuda-is-available:safe
    @unittest.skipIf(sys.platform == "win32", "not on Windows")
    def test_other_condition(self):
        x = torch.ones(2, device=torch.accelerator.current_accelerator().type)
        self.assertEqual(x.sum().item(), 2)

    @unittest.skipIf(not torch.accelerator.is_available(), "needs CUDA")  # expect: cuda-is-available:safe
    def test_alone(self):
        x = torch.ones(2, device=torch.accelerator.current_accelerator().type)
        self.assertEqual(x.sum().item(), 2)


@pytest.mark.skipif(not torch.accelerator.is_available(), reason="needs CUDA")  # expect: cuda-is-available:safe
def test_first():
    assert torch.ones(2, device=torch.accelerator.current_accelerator().type).sum().item() == 2


@pytest.mark.skipif(torch.cuda.is_available() and torch.cuda.get_device_capability() < (8, 0), reason="sm80")
def test_second():
    # Another test's skip: each test has its own.
    assert torch.ones(2).sum().item() == 2
