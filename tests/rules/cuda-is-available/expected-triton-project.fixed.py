# devport-test: rules=all
"""Guarded code that imports a module of the project whose top level imports Triton (axolotl's
kernel tests: `from axolotl.kernels.gemma4_fused_rope import ...` in a test that a CUDA check
skips). The package is kernelpkg/, beside this file."""
import pytest
import torch


@pytest.mark.skipif(not torch.cuda.is_available(), reason="CUDA required")  # expect: cuda-is-available:report -- Triton, through the project's module
def test_fused_rope():
    from kernelpkg.fused_rope import fused_rope

    assert fused_rope(torch.ones(2, device=torch.accelerator.current_accelerator().type)) is not None


def submodule(x):
    if torch.cuda.is_available():  # expect: cuda-is-available:report -- a submodule imported by name
        from kernelpkg import fused_rope
        return fused_rope.fused_rope(x)
    return None


def dotted(x):
    if torch.cuda.is_available():  # expect: cuda-is-available:report
        import kernelpkg.fused_rope
        return kernelpkg.fused_rope.fused_rope(x)
    return None


# Negatives: a module of the project without Triton; one that is not the project's.
def plain(x):
    if torch.accelerator.is_available():  # expect: cuda-is-available:safe
        from kernelpkg.plain import scale
        return scale(x.to(torch.accelerator.current_accelerator().type))
    return None


def documented(x):
    if torch.accelerator.is_available():  # expect: cuda-is-available:safe -- Triton only in its docstring
        from kernelpkg.documented import scale
        return scale(x.to(torch.accelerator.current_accelerator().type))
    return None


def elsewhere(x):
    if torch.accelerator.is_available():  # expect: cuda-is-available:safe
        from somewhere_else.fused_rope import fused_rope
        return fused_rope(x.to(torch.accelerator.current_accelerator().type))
    return None


def is_sm_at_least_90():
    return torch.cuda.is_available() and torch.cuda.get_device_capability() >= (9, 0)  # a feature guard, kept


@pytest.mark.skipif(not torch.accelerator.is_available() or not is_sm_at_least_90(), reason="SM90")  # expect: cuda-is-available:safe -- the capability keeps a Mac out
def test_sm90_kernel():
    from kernelpkg.fused_rope import fused_rope

    assert fused_rope(torch.ones(2, device=torch.accelerator.current_accelerator().type)) is not None
