# devport-test: target-torch=2.6
import torch

torch.cuda.set_device(rank)  # expect: cuda-set-device
