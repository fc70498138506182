# runtime: none
"""Code about the device itself: cuDNN flags, compute capability, NVTX ranges (no fix)."""
import torch

torch.backends.cudnn.benchmark = False
torch.backends.cudnn.deterministic = True
if torch.cuda.is_available():
    major, minor = torch.cuda.get_device_capability()
    print(major >= 7, torch.version.cuda is not None, torch.backends.cudnn.is_available())
    torch.cuda.nvtx.range_push("step")
    torch.cuda.nvtx.range_pop()
print(torch.backends.cudnn.deterministic)
