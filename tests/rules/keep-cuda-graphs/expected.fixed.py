import unittest
from unittest import mock

import torch

g = torch.cuda.CUDAGraph()  # expect: keep-cuda-graphs
with torch.cuda.graph(g, stream=torch.cuda.current_stream()):  # expect: keep-cuda-graphs
    pass
fn = torch.cuda.make_graphed_callables(fn, (x,))  # expect: keep-cuda-graphs

# Negatives.
g = torch.xpu.XPUGraph()
