# devport-test: rules=all
"""Negative: a module that names torchdiffeq in prose only, or imports a module whose name starts
with it, imports no torchdiffeq."""
import torch
import torchdiffeq_utils  # not torchdiffeq

# torchdiffeq is not used here.


def run(y0):
    device = torch.device(torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu")  # expect: cuda-is-available:safe
    return torchdiffeq_utils.step(y0.to(device))


import gym_utils  # not gym


def run2(y0):
    device = torch.device(torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu")  # expect: cuda-is-available:safe
    return gym_utils.step(y0.to(device))
