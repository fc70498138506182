"""A file that only imports the function: the fix adds `import torch`."""
from __future__ import annotations
import torch


print(torch.accelerator.is_available())  # expect: cuda-is-available
