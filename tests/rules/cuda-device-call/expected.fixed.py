import torch
from torch import device

dev = torch.accelerator.current_accelerator()  # expect: cuda-device-call
dev = torch.accelerator.current_accelerator()  # expect: cuda-device-call
dev = torch.accelerator.current_accelerator()  # expect: cuda-device-call
dev = torch.accelerator.current_accelerator()  # expect: cuda-device-call
same = x.device == torch.accelerator.current_accelerator()  # expect: cuda-device-call

# Negatives.
torch.device("cuda", 0)
torch.device("cuda:0")
torch.device("cpu")
torch.device(dev)
"torch.device('cuda')"
