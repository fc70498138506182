import gc

import torch
import torch.cuda as tc
from torch.cuda import reset_accumulated_memory_stats

x = torch.cuda.reset_accumulated_memory_stats()  # expect: cuda-reset-accumulated-memory-stats
x = torch.cuda.reset_accumulated_memory_stats(0)  # expect: cuda-reset-accumulated-memory-stats
x = torch.cuda.reset_accumulated_memory_stats(device=rank)  # expect: cuda-reset-accumulated-memory-stats
x = torch.cuda.memory.reset_accumulated_memory_stats(self.device)  # expect: cuda-reset-accumulated-memory-stats
x = tc.reset_accumulated_memory_stats(  # expect: cuda-reset-accumulated-memory-stats
    device="cuda:1",
)
x = reset_accumulated_memory_stats()  # expect: cuda-reset-accumulated-memory-stats


# Negatives.
torch.cuda.reset_accumulated_memory_stats(0, 1)
torch.cuda.reset_accumulated_memory_stats(dev=0)
torch.xpu.reset_accumulated_memory_stats()
torch.accelerator.reset_accumulated_memory_stats()
stats = "torch.cuda.reset_accumulated_memory_stats()"
fn = torch.cuda.reset_accumulated_memory_stats
