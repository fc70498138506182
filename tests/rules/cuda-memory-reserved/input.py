import gc

import torch
import torch.cuda as tc
from torch.cuda import memory_reserved

x = torch.cuda.memory_reserved()  # expect: cuda-memory-reserved
x = torch.cuda.memory_reserved(0)  # expect: cuda-memory-reserved
x = torch.cuda.memory_reserved(device=rank)  # expect: cuda-memory-reserved
x = torch.cuda.memory.memory_reserved(self.device)  # expect: cuda-memory-reserved
x = tc.memory_reserved(  # expect: cuda-memory-reserved
    device="cuda:1",
)
x = memory_reserved()  # expect: cuda-memory-reserved

x = torch.cuda.memory_cached()  # expect: cuda-memory-reserved -- deprecated alias

# Negatives.
torch.cuda.memory_reserved(0, 1)
torch.cuda.memory_reserved(dev=0)
torch.xpu.memory_reserved()
torch.accelerator.memory_reserved()
stats = "torch.cuda.memory_reserved()"
fn = torch.cuda.memory_reserved
