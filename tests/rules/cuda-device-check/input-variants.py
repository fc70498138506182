import unittest

import torch


def place(x, device):
    if str(device) == "cuda:0":  # expect: cuda-device-check:report -- torch.device("cuda") != "cuda:0": a human decides
        return x
    if device != 'cuda:1':  # expect: cuda-device-check:report
        pass
    if "cuda" in str(device):  # expect: cuda-device-check:report
        x = x.pin_memory()
    if "cuda" not in device:  # expect: cuda-device-check:report
        return x.cpu()
    if str(device).startswith("cuda"):  # expect: cuda-device-check:report
        pass
    if device.startswith("cuda:"):  # expect: cuda-device-check:report
        pass
    if x.device.type in ("cuda", "xpu"):  # expect: cuda-device-check:report -- an explicit list of backends: deliberate
        pass
    if device_type not in [  # multi-line list
        "cpu",
        "cuda",  # expect: cuda-device-check:report
    ]:
        raise ValueError(device_type)
    return x.device.type in {"cuda"}  # expect: cuda-device-check:report


class TestPlacement(unittest.TestCase):
    def test_device(self):
        y = torch.ones(2, device="cuda")
        self.assertEqual(y.device.type, "cuda")  # expect: cuda-device-check:report -- a test's expected value: deliberate
        self.assertEqual("cuda:0", str(y.device), msg="index")  # expect: cuda-device-check:report
        self.assertNotEqual(y.device.type, 'cuda')  # expect: cuda-device-check:report
        self.assertIn("cuda", str(y.device))  # expect: cuda-device-check:report


# Negatives.
DEVICES = ["cuda", "xpu"]  # a list of backends, not a check
for device in ("cpu", "cuda"):
    pass
EXTS = {"cuda": ".cubin", "xpu": ".spv"}
print("cuda" + ":0")
if x.device.type == "cudaa" or name.startswith("cuda_"):
    pass
if "cuda is slow" in message:
    pass
self.assertEqual(y.device.type, "cpu")
self.assertTrue(y.is_pinned(), "cuda")
# if x.device.type == "cuda": a comment
"""if x.device.type == "cuda": a docstring"""
