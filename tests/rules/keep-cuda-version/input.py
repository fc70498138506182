import unittest
from unittest import mock

import torch

if torch.version.cuda is not None:  # expect: keep-cuda-version
    pass
on_rocm = torch.version.hip is not None  # expect: keep-cuda-version

# Negatives.
v = torch.__version__
