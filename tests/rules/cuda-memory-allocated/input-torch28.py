# devport-test: target-torch=2.8
import torch

x = torch.cuda.memory_allocated(device=0)  # expect: cuda-memory-allocated
