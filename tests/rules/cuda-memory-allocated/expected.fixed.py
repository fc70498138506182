import gc

import torch
import torch.cuda as tc

x = torch.accelerator.memory_allocated()  # expect: cuda-memory-allocated
x = torch.accelerator.memory_allocated(0)  # expect: cuda-memory-allocated
x = torch.accelerator.memory_allocated(rank)  # expect: cuda-memory-allocated
x = torch.accelerator.memory_allocated(self.device)  # expect: cuda-memory-allocated
x = torch.accelerator.memory_allocated(  # expect: cuda-memory-allocated
    "cuda:1",
)
x = torch.accelerator.memory_allocated()  # expect: cuda-memory-allocated


# Negatives.
torch.cuda.memory_allocated(0, 1)
torch.cuda.memory_allocated(dev=0)
torch.xpu.memory_allocated()
torch.accelerator.memory_allocated()
stats = "torch.cuda.memory_allocated()"
fn = torch.cuda.memory_allocated
