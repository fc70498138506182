import gc

import torch
import torch.cuda as tc
from torch.cuda import reset_peak_memory_stats

x = torch.cuda.reset_peak_memory_stats()  # expect: cuda-reset-peak-memory-stats
x = torch.cuda.reset_peak_memory_stats(0)  # expect: cuda-reset-peak-memory-stats
x = torch.cuda.reset_peak_memory_stats(device=rank)  # expect: cuda-reset-peak-memory-stats
x = torch.cuda.memory.reset_peak_memory_stats(self.device)  # expect: cuda-reset-peak-memory-stats
x = tc.reset_peak_memory_stats(  # expect: cuda-reset-peak-memory-stats
    device="cuda:1",
)
x = reset_peak_memory_stats()  # expect: cuda-reset-peak-memory-stats

x = torch.cuda.reset_max_memory_allocated()  # expect: cuda-reset-peak-memory-stats -- deprecated, it calls reset_peak_memory_stats
x = torch.cuda.reset_max_memory_cached(device=0)  # expect: cuda-reset-peak-memory-stats

# Negatives.
torch.cuda.reset_peak_memory_stats(0, 1)
torch.cuda.reset_peak_memory_stats(dev=0)
torch.xpu.reset_peak_memory_stats()
torch.accelerator.reset_peak_memory_stats()
stats = "torch.cuda.reset_peak_memory_stats()"
fn = torch.cuda.reset_peak_memory_stats
