import torch

x = torch.ones(2, device="cuda:1")  # expect: cuda-device-index-string
y = x.to("cuda:0")  # expect: cuda-device-index-string
ckpt = torch.load(f, map_location='cuda:0')  # expect: cuda-device-index-string
gen = torch.Generator("cuda:1").manual_seed(0)  # expect: cuda-device-index-string

# Negatives.
torch.ones(2, device="cuda")
name = "cuda:0"
torch.ones(2, device="cpu:0")
