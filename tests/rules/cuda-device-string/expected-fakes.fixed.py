# devport-test: rules=all
"""A device string that a double holds (unsloth's Studio tests, which a CPU-only CI runs): a
namespace or mock built with it, a fake class's attribute, a stub's settings. It never touched
the device, where torch.accelerator.current_accelerator() is None on a CPU-only build."""
import types
from unittest.mock import MagicMock

import torch


def _server_load_backend():
    return types.SimpleNamespace(backend="gguf", device=torch.accelerator.current_accelerator().type)  # expect: cuda-device-string:unsafe -- a namespace's field


def _model_double():
    return MagicMock(device=torch.accelerator.current_accelerator().type)  # expect: cuda-device-string:unsafe -- a mock's


class _FakeSidecar:
    def __init__(self, configure):
        configure(device=torch.accelerator.current_accelerator().type)  # expect: cuda-device-string:unsafe -- in a fake class


def _stub_spawn(configure):
    configure(device=torch.accelerator.current_accelerator().type)  # expect: cuda-device-string:unsafe -- in a stub


# Negatives: real placements in helpers.
def make_inputs():
    return torch.zeros(2, device=torch.accelerator.current_accelerator().type)  # expect: cuda-device-string:safe


class Runner:
    def move(self, model):
        return model.to(device=torch.accelerator.current_accelerator().type)  # expect: cuda-device-string:safe
