"""A file that only imports the function: the fix adds `import torch`."""
from __future__ import annotations

from torch.cuda import is_available

print(is_available())  # expect: cuda-is-available
