import gc

import torch
import torch.cuda as tc
from torch.cuda import max_memory_allocated

x = torch.cuda.max_memory_allocated()  # expect: cuda-max-memory-allocated
x = torch.cuda.max_memory_allocated(0)  # expect: cuda-max-memory-allocated
x = torch.cuda.max_memory_allocated(device=rank)  # expect: cuda-max-memory-allocated
x = torch.cuda.memory.max_memory_allocated(self.device)  # expect: cuda-max-memory-allocated
x = tc.max_memory_allocated(  # expect: cuda-max-memory-allocated
    device="cuda:1",
)
x = max_memory_allocated()  # expect: cuda-max-memory-allocated


# Negatives.
torch.cuda.max_memory_allocated(0, 1)
torch.cuda.max_memory_allocated(dev=0)
torch.xpu.max_memory_allocated()
torch.accelerator.max_memory_allocated()
stats = "torch.cuda.max_memory_allocated()"
fn = torch.cuda.max_memory_allocated
