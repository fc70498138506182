import torch

a = torch.device(torch.accelerator.current_accelerator().type, 0)  # expect: cuda-device-index
b = torch.device(torch.accelerator.current_accelerator().type, rank)  # expect: cuda-device-index
c = torch.device(torch.accelerator.current_accelerator().type, local_rank)  # expect: cuda-device-index
d = torch.device(torch.accelerator.current_accelerator().type, 1)  # expect: cuda-device-index
e = torch.device(torch.accelerator.current_accelerator().type, 12)  # expect: cuda-device-index
f = torch.device(torch.accelerator.current_accelerator().type, 0)  # expect: cuda-device-index
g = torch.device(torch.accelerator.current_accelerator().type, rank)  # expect: cuda-device-index

# Negatives.
torch.device("cuda")
torch.device("cpu", 0)
torch.device("cuda:x")
torch.device(f"cuda:{rank}")
torch.device(type="cpu", index=0)
torch.device(type="cuda")
