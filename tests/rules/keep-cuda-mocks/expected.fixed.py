import unittest
from unittest import mock

import torch

with mock.patch.object(torch.cuda, '_raw_device_count_nvml', return_value=4):  # expect: keep-cuda-mocks
    pass
monkeypatch.setattr(torch.cuda, 'get_device_capability', lambda *a: (8, 0))  # expect: keep-cuda-mocks
mocker.patch.object(torch.cuda, "_lazy_init")  # expect: keep-cuda-mocks

# Negatives.
mock.patch.object(torch.xpu, 'device_count', return_value=4)
# Doubles of functions devport rewrites are reported by cuda-mock-patch, not kept:
with mock.patch.object(torch.cuda, 'device_count', return_value=4):
    pass
monkeypatch.setattr(torch.cuda, 'is_available', lambda: False)
