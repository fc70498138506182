"""A test that builds a torch.nn module on the device (`from torch import nn`, nanotron's
gradient-accumulation test): the constructor allocates its parameters there, so the test failed
on a CPU-only build before any fix, as `torch.ones(2, device="cuda")` did."""
import torch
from torch import nn


def test_linear_only():
    model = nn.Linear(3, 2, bias=False, device=torch.accelerator.current_accelerator().type)  # expect: cuda-device-string:safe -- the module's weights are on the device
    for _ in range(2):
        x = torch.randn(5, 3, device=torch.accelerator.current_accelerator().type)  # expect: cuda-device-string:safe
        model(x).sum().backward()


def test_config_only():
    # A class of the test's own module that takes a device: it may only store it.
    cfg = Settings(device=torch.accelerator.current_accelerator().type)  # expect: cuda-device-string:unsafe -- nothing shows the device was used
    assert cfg.device
