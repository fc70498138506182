import unittest
from unittest import mock

import torch

SM80 = torch.cuda.is_available() and torch.cuda.get_device_capability() >= (8, 0)  # expect: keep-cuda-feature-guard
use_cudnn = torch.cuda.is_available() and torch.backends.cudnn.enabled  # expect: keep-cuda-feature-guard
if torch.cuda.is_available():  # expect: keep-cuda-feature-guard
    torch.backends.cudnn.benchmark = True
    model = model.cuda()
if torch.cuda.is_available():  # expect: keep-cuda-feature-guard
    graph = torch.cuda.CUDAGraph()
else:
    graph = None

# Negatives.
ok = torch.cuda.is_available() and x > 0
if torch.cuda.is_available():
    model = model.cuda()
