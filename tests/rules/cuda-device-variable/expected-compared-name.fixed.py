# devport-test: rules=all
"""A device assigned to a name that is only compared, keyed or formatted later in its function
(torchrec's sharding helpers): the code never used the device, and it ran on a CPU-only build."""
from typing import Dict, List, Optional

import torch


def get_codecs_registry(precision: str, device: Optional[torch.device] = None) -> dict:
    if device is None:
        device = torch.accelerator.current_accelerator()  # expect: cuda-device-call:unsafe -- only its .type is compared
    if device.type == "cpu" and precision == "bf16":
        precision = "fp16"
    return {"precision": precision}


def check_hybrid_env(env: Dict[str, int], shard_device_types: List[str]) -> int:
    expected_device_type = torch.accelerator.current_accelerator().type  # expect: cuda-device-variable:unsafe -- compared, keyed, formatted
    for shard_device_type in shard_device_types:
        assert shard_device_type == expected_device_type, f"got {expected_device_type}"
    return env[expected_device_type]


def move(x):
    device = torch.accelerator.current_accelerator()  # expect: cuda-device-call:safe -- it is used
    if device.type == "cuda":
        x = x.to(device)
    return x


def pick():
    device = torch.accelerator.current_accelerator().type  # expect: cuda-device-variable:safe -- returned
    return device


def mask(h, use_cuda):
    inds = torch.ones(3).bool()
    if use_cuda:
        inds = inds.to(device=torch.accelerator.current_accelerator())  # expect: cuda-method:safe -- a tensor, not a device, indexes
    h[inds] = 0
    return h
