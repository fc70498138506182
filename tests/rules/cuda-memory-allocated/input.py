import gc

import torch
import torch.cuda as tc
from torch.cuda import memory_allocated

x = torch.cuda.memory_allocated()  # expect: cuda-memory-allocated
x = torch.cuda.memory_allocated(0)  # expect: cuda-memory-allocated
x = torch.cuda.memory_allocated(device=rank)  # expect: cuda-memory-allocated
x = torch.cuda.memory.memory_allocated(self.device)  # expect: cuda-memory-allocated
x = tc.memory_allocated(  # expect: cuda-memory-allocated
    device="cuda:1",
)
x = memory_allocated()  # expect: cuda-memory-allocated


# Negatives.
torch.cuda.memory_allocated(0, 1)
torch.cuda.memory_allocated(dev=0)
torch.xpu.memory_allocated()
torch.accelerator.memory_allocated()
stats = "torch.cuda.memory_allocated()"
fn = torch.cuda.memory_allocated
