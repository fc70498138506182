# devport-test: rules=all
"""A per-backend ladder written as ifs that return (ignite's ComputationModel.device)."""
import torch


def device():
    if torch.cuda.is_available():
        return torch.device("cuda")
    if torch.backends.mps.is_available():
        return torch.device("mps")
    return torch.device("cpu")


def device_name():
    # A comment and another early exit between the arms.
    if torch.cuda.is_available():
        return "cuda"
    # Apple silicon
    if not torch.backends.mps.is_built():
        raise RuntimeError("no device")
    if torch.backends.mps.is_available():
        return "mps"
    return "cpu"


def not_a_ladder(x):
    # The next if does not exit, and names no backend: the first is a guard as any other.
    if torch.accelerator.is_available():  # expect: cuda-is-available:safe
        return x.sum()
    if x.dim() > 1:
        x = x.flatten()
    return x
