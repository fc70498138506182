# runtime: safe unsafe
"""Memory statistics around an allocation."""
import torch

if torch.cuda.is_available():
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    before = torch.cuda.memory_allocated()
    x = torch.empty(1 << 20, device="cuda")
    grew = torch.cuda.memory_allocated() - before
    peak = torch.cuda.max_memory_allocated()
    print(grew >= 4 << 20, peak >= grew, torch.cuda.memory_reserved() >= grew)
    del x
print("done")
