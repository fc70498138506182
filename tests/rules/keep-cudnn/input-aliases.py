"""cuDNN settings through the file's own imports."""
from torch.backends import cudnn
import torch.backends.cudnn as cdn

cudnn.benchmark = True  # expect: keep-cudnn
cdn.deterministic = True  # expect: keep-cudnn

# Negatives: an unrelated cudnn.
import mylib.cudnn as cudnn2

cudnn2.benchmark = True
