import os
import unittest
from typing import Literal

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

def run(x, device=torch.accelerator.current_accelerator().type):  # expect: cuda-device-default
    return x


def build(*, device: str = torch.accelerator.current_accelerator().type) -> None:  # expect: cuda-device-default
    pass


class Trainer:
    def fit(self, data, device=torch.accelerator.current_accelerator().type):  # expect: cuda-device-default
        pass


def launch(rank: int, device_type: Literal["cpu", "cuda", "mps"] = torch.accelerator.current_accelerator().type) -> None:  # expect: cuda-device-default -- nerfstudio's
    pass


async def serve(request, device=torch.accelerator.current_accelerator().type):  # expect: cuda-device-default -- an async def
    return request


# Negatives.
def run(x, device="cpu"):
    return x


def other(x, backend="cuda"):
    return x
