# devport-test: target-torch=2.8
import torch

torch.get_device_module().empty_cache()  # expect: cuda-empty-cache
