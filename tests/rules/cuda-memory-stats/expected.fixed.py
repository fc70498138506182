import gc

import torch
import torch.cuda as tc

x = torch.accelerator.memory_stats()  # expect: cuda-memory-stats
x = torch.accelerator.memory_stats(0)  # expect: cuda-memory-stats
x = torch.accelerator.memory_stats(rank)  # expect: cuda-memory-stats
x = torch.accelerator.memory_stats(self.device)  # expect: cuda-memory-stats
x = torch.accelerator.memory_stats(  # expect: cuda-memory-stats
    "cuda:1",
)
x = torch.accelerator.memory_stats()  # expect: cuda-memory-stats


# Negatives.
torch.cuda.memory_stats(0, 1)
torch.cuda.memory_stats(dev=0)
torch.xpu.memory_stats()
torch.accelerator.memory_stats()
stats = "torch.cuda.memory_stats()"
fn = torch.cuda.memory_stats
