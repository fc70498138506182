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
if torch.cuda.is_available():  # expect: keep-cuda-feature-guard
    assert is_sm_at_least_89() or is_MI300(), "needs SM 8.9 or MI300"
fp8 = torch.cuda.is_available() and sm_version() >= 89  # expect: keep-cuda-feature-guard

# Negatives.
ok = torch.cuda.is_available() and x > 0
ok = torch.cuda.is_available() and smooth and prism_count and MI3
if torch.cuda.is_available():
    model = model.cuda()
