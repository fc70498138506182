# devport-test: target-torch=2.0
import torch

from accelerate.utils import is_xpu_available


class TorchTracemalloc:
    # accelerate's examples (torch>=2.0): a per-backend ladder is kept whole at a target that
    # has no replacement for its checks, as it is at one that has.
    def __enter__(self):
        if torch.cuda.is_available():
            torch.cuda.empty_cache()
            self.begin = torch.cuda.memory_allocated()
        elif is_xpu_available():
            torch.xpu.empty_cache()
            self.begin = torch.xpu.memory_allocated()
        return self


def pick():
    # Not a ladder: reported without a fix, the target has none.
    if torch.cuda.is_available():  # expect: cuda-is-available:report -- no fix for 2.0
        return "cuda"
    return "cpu"
