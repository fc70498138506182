# runtime: unsafe
"""Mixed precision with the deprecated AMP API."""
import torch

torch.manual_seed(0)
use_cuda = torch.cuda.is_available()
device = "cuda" if use_cuda else "cpu"
model = torch.nn.Linear(8, 8).to(device)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
scaler = torch.cuda.amp.GradScaler(enabled=use_cuda)
x = torch.ones(4, 8, device=device)
with torch.cuda.amp.autocast(enabled=use_cuda):
    y = model(x)
    print(y.dtype)
loss = y.float().sum()
scaler.scale(loss).backward()
scaler.step(opt)
scaler.update()
print(round(loss.item(), 3), scaler.is_enabled())
