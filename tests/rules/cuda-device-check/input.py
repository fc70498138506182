import torch

if x.device.type == "cuda":  # expect: cuda-device-check
    pass
if "cuda" != device_type:  # expect: cuda-device-check
    pass
on_gpu = t.device.type == 'cuda' and torch.backends.cudnn.enabled  # expect: cuda-device-check

# Negatives.
if x.device.type == "cpu":
    pass
y = x.to("cuda")
