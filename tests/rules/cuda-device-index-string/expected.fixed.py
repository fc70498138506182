import torch

x = torch.ones(2, device=torch.accelerator.current_accelerator().type + ":1")  # expect: cuda-device-index-string
y = x.to(torch.accelerator.current_accelerator().type + ":0")  # expect: cuda-device-index-string
ckpt = torch.load(f, map_location=torch.accelerator.current_accelerator().type + ":0")  # expect: cuda-device-index-string
gen = torch.Generator(torch.accelerator.current_accelerator().type + ":1").manual_seed(0)  # expect: cuda-device-index-string

# Negatives.
torch.ones(2, device="cuda")
name = "cuda:0"
torch.ones(2, device="cpu:0")
