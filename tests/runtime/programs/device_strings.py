# runtime: safe unsafe
"""Device strings: a pick, an indexed device, an f-string."""
import torch

dev = "cuda:0" if torch.cuda.is_available() else "cpu"
a = torch.zeros(2, device=dev)
if torch.cuda.is_available():
    b = torch.ones(2, device="cuda")
    i = 0
    c = torch.ones(2, device=f"cuda:{i}")
    d = torch.ones(2).to(torch.device("cuda", i))
    print(b.device, c.device, d.device, (b + c + d).tolist())
print(a.device.type, a.tolist())
