import torch
import torch as t
from torch.cuda import device_count as n

world_size = torch.accelerator.device_count()  # expect: cuda-device-count
if torch.accelerator.device_count() > 1:  # expect: cuda-device-count
    pass
gpus = torch.accelerator.device_count()  # expect: cuda-device-count
ranks = list(range(torch.accelerator.device_count()))  # expect: cuda-device-count


class Trainer:
    def world(self):
        return torch.accelerator.device_count()  # expect: cuda-device-count


# Negatives.
counter = torch.cuda.device_count
torch.xpu.device_count()
torch.accelerator.device_count()
msg = f"found {n} devices"
print("torch.cuda.device_count()")
