# devport-test: target-torch=2.6
import torch

idx = torch.accelerator.current_device_idx()  # expect: cuda-current-device
