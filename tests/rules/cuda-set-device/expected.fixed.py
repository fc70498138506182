import torch

torch.accelerator.set_device_index(rank)  # expect: cuda-set-device
torch.accelerator.set_device_index(local_rank)  # expect: cuda-set-device
torch.accelerator.set_device_index(  # expect: cuda-set-device
    self.rank
)
torch.accelerator.set_device_index(0)  # expect: cuda-set-device
# Nested: the outer call is fixed first, the inner one in the next round.
torch.accelerator.set_device_index(torch.cuda.current_device())  # expect: cuda-set-device


def setup(rank):
    torch.accelerator.set_device_index(rank % torch.cuda.device_count())  # expect: cuda-set-device


# Negatives.
torch.cuda.set_device()
torch.cuda.set_device(rank, extra)
torch.cuda.set_device(**kwargs)
torch.xpu.set_device(rank)
