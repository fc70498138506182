# devport-test: target-torch=2.8
import torch

x = torch.get_device_module().max_memory_allocated(0)  # expect: cuda-max-memory-allocated
