# devport-test: rules=all
"""Guarded code that imports Triton, which has no build for macOS (axolotl's kernel tests)."""
import pytest
import torch


@pytest.mark.skipif(not torch.cuda.is_available(), reason="CUDA required for Triton kernels")  # expect: cuda-is-available:report -- Triton
def test_kernel():
    import triton

    x = torch.ones(4, device="cuda")
    assert triton is not None and x.sum().item() == 4


def bench(x):
    if torch.cuda.is_available():  # expect: cuda-is-available:report -- Triton
        from triton.testing import do_bench
        return do_bench(lambda: x * 2)
    return None


def bench_aliased(x):
    if torch.cuda.is_available():  # expect: cuda-is-available:report -- Triton
        import triton.language as tl
        return tl
    return None


# Negatives: another module whose name starts with triton; an import outside the guard.
def other(x):
    if torch.cuda.is_available():  # expect: cuda-is-available:safe
        import tritonclient
        return tritonclient, x.to("cuda")
    return None


def outside(x):
    import triton

    if torch.cuda.is_available():  # expect: cuda-is-available:safe
        return x.to("cuda"), triton
    return None


def triton_available():
    # axolotl's sonicmoe kernels: a failed import is caught.
    if not torch.cuda.is_available():  # expect: cuda-is-available:safe
        return False
    try:
        import triton  # noqa: F401
    except ImportError:
        return False
    return True


def has_triton():
    return False


def kernels():
    # torchao's mx_formats kernels: the condition asks for Triton too.
    ok = has_triton() and torch.cuda.is_available()  # expect: cuda-is-available:safe
    if ok:
        import triton
        return triton
    return None
