# runtime: safe unsafe
"""Autocast and a scaler named by their device type."""
import torch

torch.manual_seed(0)
if torch.cuda.is_available():
    a = torch.randn(4, 4, device="cuda")
    with torch.autocast(device_type="cuda", dtype=torch.bfloat16):
        y = a @ a
    scaler = torch.amp.GradScaler("cuda")
    print(y.dtype, scaler.is_enabled(), round(y.float().sum().item(), 1))
print("ok")
