import torch

a = torch.device("cuda", 0)  # expect: cuda-device-index
b = torch.device("cuda", rank)  # expect: cuda-device-index
c = torch.device("cuda", index=local_rank)  # expect: cuda-device-index
d = torch.device("cuda:1")  # expect: cuda-device-index
e = torch.device('cuda:12')  # expect: cuda-device-index
f = torch.device(type="cuda", index=0)  # expect: cuda-device-index
g = torch.device(index=rank, type="cuda")  # expect: cuda-device-index

# Negatives.
torch.device("cuda")
torch.device("cpu", 0)
torch.device("cuda:x")
torch.device(f"cuda:{rank}")
torch.device(type="cpu", index=0)
torch.device(type="cuda")
