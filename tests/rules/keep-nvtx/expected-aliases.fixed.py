"""NVTX through the file's own imports: dispatched by what the function is an attribute of."""
import torch.cuda as tc
from torch.cuda import nvtx
import torch.cuda.nvtx as nv

nvtx.range_push("step")  # expect: keep-nvtx
tc.nvtx.range_pop()  # expect: keep-nvtx
nv.mark("x")  # expect: keep-nvtx

# Negatives: another module's nvtx.
import other

other.nvtx.range_push("x")
