import gc

import torch
import torch.cuda as tc

x = torch.accelerator.reset_accumulated_memory_stats()  # expect: cuda-reset-accumulated-memory-stats
x = torch.accelerator.reset_accumulated_memory_stats(0)  # expect: cuda-reset-accumulated-memory-stats
x = torch.accelerator.reset_accumulated_memory_stats(rank)  # expect: cuda-reset-accumulated-memory-stats
x = torch.accelerator.reset_accumulated_memory_stats(self.device)  # expect: cuda-reset-accumulated-memory-stats
x = torch.accelerator.reset_accumulated_memory_stats(  # expect: cuda-reset-accumulated-memory-stats
    "cuda:1",
)
x = torch.accelerator.reset_accumulated_memory_stats()  # expect: cuda-reset-accumulated-memory-stats


# Negatives.
torch.cuda.reset_accumulated_memory_stats(0, 1)
torch.cuda.reset_accumulated_memory_stats(dev=0)
torch.xpu.reset_accumulated_memory_stats()
torch.accelerator.reset_accumulated_memory_stats()
stats = "torch.cuda.reset_accumulated_memory_stats()"
fn = torch.cuda.reset_accumulated_memory_stats
