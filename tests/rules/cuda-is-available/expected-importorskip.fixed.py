# devport-test: rules=all
"""A test module that loads torch with pytest.importorskip (unsloth's Studio tests): torch is
bound where the fixes go, and an `import torch` added at the top would make the module fail to
collect, where it was skipped, on a host without torch."""
import pytest

torch = pytest.importorskip("torch")
# triton = importlib.import_module("triton")  (a comment: DeepSpeed's sparse attention)


@pytest.mark.skipif(not torch.accelerator.is_available(), reason="needs CUDA")  # expect: cuda-is-available:safe -- no import added
def test_runs_on_device():
    x = torch.randn(4, device=torch.accelerator.current_accelerator().type)
    assert x.shape == (4,)


def _require_two_devices():
    local_torch = pytest.importorskip("torch")
    if not torch.accelerator.is_available():  # expect: cuda-is-available:safe -- bound in the function, as an import would be
        pytest.skip("requires CUDA")
    return local_torch
