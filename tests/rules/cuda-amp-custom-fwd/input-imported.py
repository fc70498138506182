"""With `custom_fwd` imported from torch.cuda.amp, the member `custom_fwd` of another module is
not that name (it was rewritten to `torch.amp.torch.amp.custom_fwd(...)`)."""
import torch
from torch.cuda.amp import custom_bwd, custom_fwd


class Fn(torch.autograd.Function):
    @staticmethod
    @custom_fwd  # expect: cuda-amp-custom-fwd
    def forward(ctx, x):
        return x

    @staticmethod
    @torch.amp.custom_bwd(device_type="cuda")
    def backward(ctx, g):
        return g


@torch.amp.custom_fwd(device_type="cuda")
def f(ctx, x):
    return x


g = torch.amp.custom_fwd
