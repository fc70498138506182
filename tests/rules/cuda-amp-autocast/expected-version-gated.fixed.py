import torch

try:
    from torch.amp import autocast
except ImportError:
    from torch.cuda.amp import autocast

# The name is imported from two places: it stays as it is.
with autocast("cuda"):
    pass
