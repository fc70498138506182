import gc

import torch
import torch.cuda as tc

x = torch.accelerator.reset_peak_memory_stats()  # expect: cuda-reset-peak-memory-stats
x = torch.accelerator.reset_peak_memory_stats(0)  # expect: cuda-reset-peak-memory-stats
x = torch.accelerator.reset_peak_memory_stats(rank)  # expect: cuda-reset-peak-memory-stats
x = torch.accelerator.reset_peak_memory_stats(self.device)  # expect: cuda-reset-peak-memory-stats
x = torch.accelerator.reset_peak_memory_stats(  # expect: cuda-reset-peak-memory-stats
    "cuda:1",
)
x = torch.accelerator.reset_peak_memory_stats()  # expect: cuda-reset-peak-memory-stats

x = torch.accelerator.reset_peak_memory_stats()  # expect: cuda-reset-peak-memory-stats -- deprecated, it calls reset_peak_memory_stats
x = torch.accelerator.reset_peak_memory_stats(0)  # expect: cuda-reset-peak-memory-stats

# Negatives.
torch.cuda.reset_peak_memory_stats(0, 1)
torch.cuda.reset_peak_memory_stats(dev=0)
torch.xpu.reset_peak_memory_stats()
torch.accelerator.reset_peak_memory_stats()
stats = "torch.cuda.reset_peak_memory_stats()"
fn = torch.cuda.reset_peak_memory_stats
