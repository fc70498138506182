import torch
from torch import device

dev = torch.device("cuda")  # expect: cuda-device-call
dev = torch.device('cuda')  # expect: cuda-device-call
dev = torch.device(type="cuda")  # expect: cuda-device-call
dev = device("cuda")  # expect: cuda-device-call
same = x.device == torch.device("cuda")  # expect: cuda-device-call

# Negatives.
torch.device("cuda", 0)
torch.device("cuda:0")
torch.device("cpu")
torch.device(dev)
"torch.device('cuda')"
