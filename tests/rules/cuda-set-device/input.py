import torch
from torch.cuda import set_device

torch.cuda.set_device(rank)  # expect: cuda-set-device
torch.cuda.set_device(device=local_rank)  # expect: cuda-set-device
torch.cuda.set_device(  # expect: cuda-set-device
    self.rank
)
set_device(0)  # expect: cuda-set-device
# Nested: the outer call is fixed first, the inner one in the next round.
torch.cuda.set_device(torch.cuda.current_device())  # expect: cuda-set-device


def setup(rank):
    torch.cuda.set_device(rank % torch.cuda.device_count())  # expect: cuda-set-device


# Negatives.
torch.cuda.set_device()
torch.cuda.set_device(rank, extra)
torch.cuda.set_device(**kwargs)
torch.xpu.set_device(rank)
