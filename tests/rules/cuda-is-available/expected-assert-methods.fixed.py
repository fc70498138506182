# devport-test: rules=all
"""A test's assertion that there is CUDA guards what follows it as an `assert` does: the test
stops there where it fails (apex's tests, `self.assertTrue(torch.cuda.is_available())`)."""
import unittest

import torch


class ProfilerTest(unittest.TestCase):
    def test_profiler(self):
        self.assertTrue(torch.cuda.is_available())  # expect: cuda-is-available:report -- the code after it uses the CUDA runtime API
        torch.cuda.cudart().cudaProfilerStart()

    def test_amp(self):
        self.assertTrue(torch.accelerator.is_available(), "needs CUDA")  # expect: cuda-is-available:unsafe -- autocast is torch.cuda.amp's

        with torch.amp.autocast(torch.accelerator.current_accelerator().type):
            self.assertEqual(torch.ones(2).sum().item(), 2.0)

    def test_clean(self):
        self.assertTrue(torch.accelerator.is_available())  # expect: cuda-is-available:safe -- the rest is portable
        x = torch.ones(2, device=torch.accelerator.current_accelerator().type)
        self.assertEqual(x.sum().item(), 2.0)

    def test_compared(self):
        # Not an assertion that there is CUDA: a value compared (the test checks the answer).
        self.assertEqual(torch.accelerator.is_available(), torch.accelerator.device_count() > 0)  # expect: cuda-is-available:safe
        torch.cuda.cudart().cudaProfilerStart()

    def test_values(self):
        # A value compared, not a device asked for: what follows is not guarded by it.
        x = torch.arange(4)
        self.assertTrue(torch.equal(x, torch.arange(4, device=torch.accelerator.current_accelerator().type).cpu()))
        torch.cuda.cudart().cudaProfilerStart()
        self.assertTrue(torch.cuda.is_available() or x.sum() > 0)  # expect: cuda-is-available:report -- still a device asked for
        torch.cuda.cudart().cudaProfilerStop()

    def test_named(self):
        # Where the assertion fails, the test stops: a CPU-only CI never reaches the device name.
        self.assertTrue(torch.accelerator.is_available())  # expect: cuda-is-available:safe -- the rest is portable
        device = torch.accelerator.current_accelerator().type
        print(device)
