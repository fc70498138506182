"""A file that only imports the function: the fix adds `import torch`."""
from __future__ import annotations
import torch

from torch.cuda import is_available

print(torch.accelerator.is_available())  # expect: cuda-is-available
