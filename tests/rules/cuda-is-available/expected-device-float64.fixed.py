# devport-test: rules=all
"""A chosen device that reaches float64 in the same function or class (botorch's VBLL network)."""
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self, in_features, device=None):
        super().__init__()
        if device is None:
            self.device = torch.device(torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu")  # expect: cuda-is-available:unsafe -- no float64 on a Mac
        else:
            self.device = device
        self.backbone = nn.Sequential(nn.Linear(in_features, 8), nn.ELU()).to(
            dtype=torch.float64, device=self.device
        )


def make(x):
    dev = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"  # expect: cuda-is-available:unsafe
    return x.double().to(dev)


def portable(x):
    dev = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"  # expect: cuda-is-available:safe
    return x.float().to(dev)


def foundation_model(model=None, device="", default_dtype="float64"):
    # mace's foundation models: float64 checkpoints loaded where the pick says.
    device = device or (torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu")  # expect: cuda-is-available:unsafe -- a float64 dtype by name
    return torch.load(model, map_location=device)


def to_lammps(path):
    model = torch.load(
        path,
        map_location=torch.device(torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"),  # expect: cuda-is-available:unsafe -- .double() later
    )
    return model.double().to("cpu")


def float32_only(path):
    model = torch.load(path, map_location=torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu")  # expect: cuda-is-available:safe
    # A comment that says float64 is no float64.
    return model.float()
