# devport-test: rules=all
"""Guarded code that runs flex attention (lerobot's lingbot test: "requires a CUDA GPU
(flex-attention)"): it has no MPS support, so a Mac fails where the check skipped it. XPU and
the CPU run it."""
import pytest
import torch
from torch.nn.attention import flex_attention as fa
from torch.nn.attention.flex_attention import create_block_mask, flex_attention


def test_training_step_tiny_flex():
    if not torch.cuda.is_available():  # expect: cuda-is-available:report -- flex attention on a Mac
        pytest.skip("training step test requires a CUDA GPU (flex-attention)")
    q = torch.randn(1, 2, 16, 24, device=torch.accelerator.current_accelerator().type, dtype=torch.bfloat16, requires_grad=True)
    out = torch.compile(flex_attention)(q, q, q)
    out.sum().backward()


def masked(q):
    if torch.cuda.is_available():  # expect: cuda-is-available:report
        mask = create_block_mask(lambda b, h, i, j: i >= j, 1, 1, 16, 16)
        return flex_attention(q, q, q, block_mask=mask)
    return q


def attention(q):
    # torchtitan's tests: the module under an alias, called in a helper.
    return fa.flex_attention(q, q, q)


def test_helper():
    if not torch.cuda.is_available():  # expect: cuda-is-available:report -- flex attention through fa
        pytest.skip("needs CUDA")
    q = torch.randn(1, 2, 16, 24, device=torch.accelerator.current_accelerator().type)
    assert attention(q).shape == q.shape


class Model(torch.nn.Module):
    def flex_attention(self, q):
        return q

    def forward(self, q):
        # Negative: a method of that name.
        if torch.accelerator.is_available():  # expect: cuda-is-available:safe
            q = q.to(torch.accelerator.current_accelerator().type)
        return self.flex_attention(q)


# Negatives: the function's own name; nothing of flex attention in the guarded code.
def flex_attention_config():
    if torch.accelerator.is_available():  # expect: cuda-is-available:safe
        return torch.ones(2, device=torch.accelerator.current_accelerator().type)
    return None
