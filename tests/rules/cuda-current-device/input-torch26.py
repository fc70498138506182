# devport-test: target-torch=2.6
import torch

idx = torch.cuda.current_device()  # expect: cuda-current-device
