# devport-test: rules=all
"""A module that pytest skips without CUDA: its tests never run on a CPU-only build."""
import pytest
import torch

pytestmark = pytest.mark.skipif(not torch.accelerator.is_available(), reason="needs a GPU")


def test_device_as_key():
    cache = {torch.accelerator.current_accelerator(): 1}  # expect: cuda-device-call:safe -- the module is skipped without CUDA
    assert len(cache) == 1
