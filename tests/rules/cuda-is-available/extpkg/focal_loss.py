# An op module of the project (mmcv/ops/focal_loss.py): its kernels are the extension's.
import torch

from .utils import ext_loader

ext_module = ext_loader.load_ext("_ext", ["sigmoid_focal_loss_forward"])


def sigmoid_focal_loss(x, y):
    return ext_module.sigmoid_focal_loss_forward(x, y)
