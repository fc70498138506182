# runtime: safe unsafe
"""A training loop that picks CUDA when it is there and falls back to the CPU."""
import torch
import torch.nn as nn

torch.manual_seed(0)
if torch.cuda.is_available():
    torch.cuda.manual_seed_all(0)

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Linear(4, 2).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.arange(8.0).reshape(2, 4).to(device)
for _ in range(3):
    loss = model(x).square().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
if torch.cuda.is_available():
    torch.cuda.synchronize()
print(device.type, round(loss.item(), 4))
