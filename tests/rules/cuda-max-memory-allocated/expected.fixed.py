import gc

import torch
import torch.cuda as tc

x = torch.accelerator.max_memory_allocated()  # expect: cuda-max-memory-allocated
x = torch.accelerator.max_memory_allocated(0)  # expect: cuda-max-memory-allocated
x = torch.accelerator.max_memory_allocated(rank)  # expect: cuda-max-memory-allocated
x = torch.accelerator.max_memory_allocated(self.device)  # expect: cuda-max-memory-allocated
x = torch.accelerator.max_memory_allocated(  # expect: cuda-max-memory-allocated
    "cuda:1",
)
x = torch.accelerator.max_memory_allocated()  # expect: cuda-max-memory-allocated


# Negatives.
torch.cuda.max_memory_allocated(0, 1)
torch.cuda.max_memory_allocated(dev=0)
torch.xpu.max_memory_allocated()
torch.accelerator.max_memory_allocated()
stats = "torch.cuda.max_memory_allocated()"
fn = torch.cuda.max_memory_allocated
