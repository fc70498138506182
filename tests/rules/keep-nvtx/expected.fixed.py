import unittest
from unittest import mock

import torch

torch.cuda.nvtx.range_push('step')  # expect: keep-nvtx
with torch.cuda.nvtx.range('fwd'):  # expect: keep-nvtx
    pass
with torch.autograd.profiler.emit_nvtx():  # expect: keep-nvtx
    pass

# Negatives.
torch.profiler.record_function('step')
