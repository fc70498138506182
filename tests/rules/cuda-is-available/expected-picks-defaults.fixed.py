# devport-test: rules=all
"""A device pick as a parameter's default (CLIP's clip.load), and a check that decides mixed
precision (skorch's AMP tests)."""
from typing import Union

import pytest
import torch


def load(name: str, device: Union[str, torch.device] = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"):  # expect: cuda-is-available:unsafe -- callers that rely on the default get another device
    model = build_model(name).to(device)
    if str(device) == "cpu":
        model.float()
    return model


@pytest.mark.parametrize("mixed_precision", ["no", "fp16", "bf16"])
def test_mixed_precision(accelerator_cls, mixed_precision):
    if (mixed_precision != "no") and not torch.accelerator.is_available():  # expect: cuda-is-available:unsafe -- it decides mixed precision
        pytest.skip("skipping AMP test because device does not support it")
    accelerator = accelerator_cls(mixed_precision=mixed_precision)
    assert accelerator


def body_pick(name):
    device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"  # expect: cuda-is-available:safe -- not a default
    return build_model(name).to(device)


def create_model(name, device=None):
    # YOLOX's torch.hub entry point: the default given in the body.
    if device is None:
        device = torch.accelerator.current_accelerator().type + ":0" if torch.accelerator.is_available() else "cpu"  # expect: cuda-is-available:unsafe -- the default of a parameter
    return build_model(name).to(device)


def foundation(name, device=""):
    device = device or (torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu")  # expect: cuda-is-available:unsafe -- the same with `or`
    return build_model(name).to(device)


def local_name(name, dev=None):
    device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"  # expect: cuda-is-available:safe -- not a parameter
    return build_model(name).to(dev or device)
