# runtime: safe unsafe
"""A helper that returns the device, and code that uses it."""
import torch


def get_device():
    if torch.cuda.is_available():
        return torch.device("cuda")
    return torch.device("cpu")


def describe(device):
    n = torch.cuda.device_count() if device.type == "cuda" else 0
    return f"{device.type} x{n}"


device = get_device()
x = torch.linspace(0, 1, 5, device=device)
print(describe(device), round(x.sum().item(), 4))
