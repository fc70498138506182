# A module of the project that does not import Triton.
import torch


def scale(x):
    return x * torch.ones(1)
