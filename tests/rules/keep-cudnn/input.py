import unittest
from unittest import mock

import torch

torch.backends.cudnn.benchmark = True  # expect: keep-cudnn
if torch.backends.cudnn.is_available():  # expect: keep-cudnn
    pass
with torch.backends.cudnn.flags(enabled=False):  # expect: keep-cudnn
    pass

# Negatives.
torch.backends.mkldnn.enabled = True
cudnn_flag = 'torch.backends.cudnn.benchmark'
