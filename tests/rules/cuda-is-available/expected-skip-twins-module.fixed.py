# devport-test: rules=all
"""A module's two skips asking the same check, one a memory gate that stays CUDA (axolotl's MoE kernels)."""
import pytest
import torch

pytestmark = [
    pytest.mark.skipif(not torch.accelerator.is_available(), reason="CUDA required"),  # expect: cuda-is-available:unsafe -- the memory gate stays
    pytest.mark.skipif(
        torch.accelerator.is_available()  # expect: cuda-is-available
        and torch.get_device_module().get_device_properties(0).total_memory < 24e9,
        reason="needs ~16GB free VRAM",
    ),
]



def test_big_expert_stack():
    w = torch.randn(40, 4096, 16384, device=torch.accelerator.current_accelerator().type, dtype=torch.bfloat16)
    assert torch.isfinite(w).all()
