# runtime: safe unsafe
"""A unittest module: a CUDA-only test skipped elsewhere, and a device-generic one."""
import io
import unittest

import torch


class T(unittest.TestCase):
    @unittest.skipIf(not torch.cuda.is_available(), "needs CUDA")
    def test_on_gpu(self):
        x = torch.ones(2, device="cuda")
        self.assertEqual(x.device.type, "cuda")
        self.assertEqual(torch.cuda.device_count() >= 1, True)

    def test_anywhere(self):
        device = "cuda" if torch.cuda.is_available() else "cpu"
        self.assertEqual(torch.ones(1, device=device).item(), 1.0)


suite = unittest.defaultTestLoader.loadTestsFromTestCase(T)
r = unittest.TextTestRunner(stream=io.StringIO()).run(suite)
print(r.testsRun, len(r.failures), len(r.errors), len(r.skipped))
