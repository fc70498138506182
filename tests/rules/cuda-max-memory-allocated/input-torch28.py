# devport-test: target-torch=2.8
import torch

x = torch.cuda.max_memory_allocated(device=0)  # expect: cuda-max-memory-allocated
