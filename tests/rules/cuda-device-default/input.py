import os
import unittest
from typing import Literal

import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh, init_device_mesh

def run(x, device="cuda"):  # expect: cuda-device-default
    return x


def build(*, device: str = "cuda") -> None:  # expect: cuda-device-default
    pass


class Trainer:
    def fit(self, data, device='cuda'):  # expect: cuda-device-default
        pass


def launch(rank: int, device_type: Literal["cpu", "cuda", "mps"] = "cuda") -> None:  # expect: cuda-device-default -- nerfstudio's
    pass


async def serve(request, device="cuda"):  # expect: cuda-device-default -- an async def
    return request


# Negatives.
def run(x, device="cpu"):
    return x


def other(x, backend="cuda"):
    return x
