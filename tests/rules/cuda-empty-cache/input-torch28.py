# devport-test: target-torch=2.8
import torch

torch.cuda.empty_cache()  # expect: cuda-empty-cache
