# devport-test: target-torch=2.8
import torch

x = torch.cuda.reset_accumulated_memory_stats(device=0)  # expect: cuda-reset-accumulated-memory-stats
