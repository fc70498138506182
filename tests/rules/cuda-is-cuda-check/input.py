import torch
import torch.nn.functional as F


def forward(x, weight):
    if x.is_cuda:  # expect: cuda-is-cuda-check:report -- a check: x.device.type == acc.type raises on a CPU-only build
        return F.linear(x, weight)
    use_kernel = x.is_cuda and weight.dtype == torch.half  # expect: cuda-is-cuda-check:report
    if not weight.is_cuda:  # expect: cuda-is-cuda-check:report
        weight = weight.to(x.device)
    on_gpu = (
        x  # expect: cuda-is-cuda-check:report -- a multi-line attribute chain: the finding starts at x
        .is_cuda
    )
    return all(t.is_cuda for t in (x, weight))  # expect: cuda-is-cuda-check:report


class Wrapper:
    def __init__(self, module):
        self.is_cuda = next(module.parameters()).is_cuda  # expect: cuda-is-cuda-check:report -- the right-hand side only: self.is_cuda is Wrapper's own flag


assert out.is_cuda, "expected a CUDA result"  # expect: cuda-is-cuda-check:report -- a precondition: a human decides


# Negatives.
# if x.is_cuda: the comment is never code
"""A docstring that mentions x.is_cuda."""
message = "x.is_cuda must hold"
is_cuda = torch.cuda.is_available()
if is_cuda:
    pass
if self.is_cuda:
    pass
if x.is_cpu or x.is_xpu or x.is_mps:
    pass
if x.device.is_cuda_like:
    pass
