import torch
from torch.cuda import synchronize

torch.cuda.synchronize()  # expect: cuda-synchronize
torch.cuda.synchronize(0)  # expect: cuda-synchronize
torch.cuda.synchronize(device=rank)  # expect: cuda-synchronize
torch.cuda.synchronize(  # expect: cuda-synchronize
    device=f"cuda:{rank}",
)
synchronize()  # expect: cuda-synchronize


def timed(fn):
    torch.cuda.synchronize(self.device)  # expect: cuda-synchronize
    fn()
    torch.cuda.synchronize()  # expect: cuda-synchronize


# Negatives: other modules, unknown keywords, splats, non-calls.
torch.xpu.synchronize()
torch.cuda.synchronize(*devices)
torch.cuda.synchronize(dev=0)
sync = torch.cuda.synchronize
torch.accelerator.synchronize()
