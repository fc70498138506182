import gc

import torch
import torch.cuda as tc

x = torch.accelerator.memory_reserved()  # expect: cuda-memory-reserved
x = torch.accelerator.memory_reserved(0)  # expect: cuda-memory-reserved
x = torch.accelerator.memory_reserved(rank)  # expect: cuda-memory-reserved
x = torch.accelerator.memory_reserved(self.device)  # expect: cuda-memory-reserved
x = torch.accelerator.memory_reserved(  # expect: cuda-memory-reserved
    "cuda:1",
)
x = torch.accelerator.memory_reserved()  # expect: cuda-memory-reserved

x = torch.accelerator.memory_reserved()  # expect: cuda-memory-reserved -- deprecated alias

# Negatives.
torch.cuda.memory_reserved(0, 1)
torch.cuda.memory_reserved(dev=0)
torch.xpu.memory_reserved()
torch.accelerator.memory_reserved()
stats = "torch.cuda.memory_reserved()"
fn = torch.cuda.memory_reserved
