# runtime: safe unsafe
"""Moving tensors with a method call, behind a flag."""
import torch

use_gpu = torch.cuda.is_available()
x = torch.ones(3)
w = torch.full((3,), 2.0)
if use_gpu:
    x = x.cuda()
    w = w.cuda(0)
    n = torch.cuda.device_count()
    idx = torch.cuda.current_device()
    torch.cuda.set_device(idx)
    print(n >= 1, idx, x.device, w.device)
print((x * w).sum().item(), x.is_cuda)
