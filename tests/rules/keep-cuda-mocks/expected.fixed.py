import unittest
from unittest import mock

import torch

with mock.patch.object(torch.cuda, 'device_count', return_value=4):  # expect: keep-cuda-mocks
    pass
monkeypatch.setattr(torch.cuda, 'is_available', lambda: False)  # expect: keep-cuda-mocks

# Negatives.
mock.patch.object(torch.xpu, 'device_count', return_value=4)
