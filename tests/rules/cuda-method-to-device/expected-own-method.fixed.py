"""text-generation-inference's layers/bnb.py: `self.weight.cuda(weight.device)` on an
Int8Params quantizes in place (bitsandbytes before 0.46, which it pins); `.to(device=...)` on
a weight already on the device returns a new, unquantized copy that the code drops."""
import torch
from bitsandbytes.nn import Int8Params


class Linear8bitLt(torch.nn.Module):
    def __init__(self, weight, has_fp16_weights=False):
        super().__init__()
        self.weight = Int8Params(weight.data, has_fp16_weights=has_fp16_weights, requires_grad=has_fp16_weights)
        self.weight.to(device=weight.device)  # expect: cuda-method-to-device:unsafe


def plain(w):
    w = w.to(device=w.device)  # expect: cuda-method-to-device:safe
    return w
