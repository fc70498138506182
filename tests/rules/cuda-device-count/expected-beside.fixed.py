# devport-test: rules=all
"""A count beside a CUDA device check that stays, through its own comparison (pyro's example tests)."""
import torch


def run(example, np):
    if "cuda" in example and np > torch.cuda.device_count():  # expect: cuda-device-count:report -- the example asks for CUDA
        return "skip"
    if np > torch.accelerator.device_count():  # expect: cuda-device-count:unsafe -- its twin at line 7 keeps CUDA
        return "too many"
    return "run"
