import gc

import torch
import torch.cuda as tc

x = torch.accelerator.max_memory_reserved()  # expect: cuda-max-memory-reserved
x = torch.accelerator.max_memory_reserved(0)  # expect: cuda-max-memory-reserved
x = torch.accelerator.max_memory_reserved(rank)  # expect: cuda-max-memory-reserved
x = torch.accelerator.max_memory_reserved(self.device)  # expect: cuda-max-memory-reserved
x = torch.accelerator.max_memory_reserved(  # expect: cuda-max-memory-reserved
    "cuda:1",
)
x = torch.accelerator.max_memory_reserved()  # expect: cuda-max-memory-reserved

x = torch.accelerator.max_memory_reserved(0)  # expect: cuda-max-memory-reserved -- deprecated alias

# Negatives.
torch.cuda.max_memory_reserved(0, 1)
torch.cuda.max_memory_reserved(dev=0)
torch.xpu.max_memory_reserved()
torch.accelerator.max_memory_reserved()
stats = "torch.cuda.max_memory_reserved()"
fn = torch.cuda.max_memory_reserved
