# devport-test: target-torch=2.6
import torch

torch.accelerator.set_device_idx(rank)  # expect: cuda-set-device
