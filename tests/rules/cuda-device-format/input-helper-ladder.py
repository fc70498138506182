# devport-test: rules=all
"""A per-backend ladder on helpers' answers (LLaMA-Factory's get_current_device, transformers'
is_torch_*_available()): its CUDA arm is already CUDA's only. Kept, as a ladder on torch's checks."""
import os

import torch
from transformers.utils import (
    is_torch_cuda_available,
    is_torch_mps_available,
    is_torch_npu_available,
    is_torch_xpu_available,
)


def get_current_device():
    if is_torch_xpu_available():
        device = "xpu:{}".format(os.getenv("LOCAL_RANK", "0"))
    elif is_torch_npu_available():
        device = "npu:{}".format(os.getenv("LOCAL_RANK", "0"))
    elif is_torch_mps_available():
        device = "mps:{}".format(os.getenv("LOCAL_RANK", "0"))
    elif is_torch_cuda_available():
        device = "cuda:{}".format(os.getenv("LOCAL_RANK", "0"))
    else:
        device = "cpu"
    return torch.device(device)


def single_backend(rank):
    if is_torch_cuda_available():
        device = "cuda:{}".format(rank)  # expect: cuda-device-format -- no other backend in the chain
    else:
        device = "cpu"
    return torch.device(device)
