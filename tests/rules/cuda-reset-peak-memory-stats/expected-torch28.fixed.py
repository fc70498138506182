# devport-test: target-torch=2.8
import torch

x = torch.get_device_module().reset_peak_memory_stats(0)  # expect: cuda-reset-peak-memory-stats
