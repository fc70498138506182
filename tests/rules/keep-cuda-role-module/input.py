# A module that is not named for CUDA: its findings are reported. Negatives only for this rule.
import torch


def device_count():
    return torch.cuda.device_count()


def use_cuda():
    return torch.cuda.is_available()
