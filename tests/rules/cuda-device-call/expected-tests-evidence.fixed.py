# devport-test: rules=all
"""What says that a test runs only with an accelerator, and what does not (docs/safety.md,
Tests): unsloth's Studio tests, which a CPU-only CI runs, name GPU selection logic, derive from
a GPU-named mixin, assert a signature's `gpu_ordinal`, and compare fake metadata's devices."""
import inspect
import unittest

import torch


def _force_engine(monkeypatch, device):
    monkeypatch.setattr("app.device", device)


def test_load_forwards_the_gpu_selection(monkeypatch):
    # The name is about GPU selection logic: "cuda" is fake data.
    _force_engine(monkeypatch, device=torch.accelerator.current_accelerator())  # expect: cuda-device-call:unsafe -- a CPU-only CI runs the test


def test_load_ignores_a_gpu_selection_off_cuda(monkeypatch):
    _force_engine(monkeypatch, device=torch.device("cuda"))  # kept: a definition named for CUDA


def test_both_stamps_wait_for_the_accelerator(monkeypatch):
    dev = torch.accelerator.current_accelerator()  # expect: cuda-device-call:unsafe -- "accelerator" in a name selects nothing
    assert dev.index is None


def test_native_load_accepts_the_resolved_ordinal(monkeypatch):
    # The assert checks a signature, not a device.
    assert "gpu_ordinal" in inspect.signature(_force_engine).parameters
    _force_engine(monkeypatch, device=torch.accelerator.current_accelerator())  # expect: cuda-device-call:unsafe -- the assert's string is data


def test_move_keeps_the_original_metadata():
    # Fake metadata: no tensor touches a device.
    original = torch.accelerator.current_accelerator()  # expect: cuda-device-call:unsafe
    assert original == torch.accelerator.current_accelerator()  # expect: cuda-device-call:unsafe -- compared only
    later = torch.accelerator.current_accelerator()  # expect: cuda-device-call:unsafe -- a comparison of devices is no skip
    assert later.index is None


class _GpuCacheResetMixin:
    def tearDown(self):
        pass


class TestSummarizeResidentStt(_GpuCacheResetMixin, unittest.TestCase):
    def test_reports_resident_model(self):
        d = torch.accelerator.current_accelerator()  # expect: cuda-device-call:unsafe -- a mixin's name selects nothing
        self.assertEqual(d.type, "cuda")


# Still evidence.
def test_gpu_inference():
    d = torch.accelerator.current_accelerator()  # expect: cuda-device-call:safe -- named for a GPU: -k gpu selects it
    assert d.type


def test_matmul_on_gpu():
    d = torch.accelerator.current_accelerator()  # expect: cuda-device-call:safe -- the name ends with the GPU
    assert d.type


def test_multi_gpu_reduce():
    d = torch.accelerator.current_accelerator()  # expect: cuda-device-call:safe -- multi-GPU
    assert d.type


def test_roi_align_cuda():
    d = torch.device("cuda")  # kept: named for CUDA
    assert d.type


def test_cudnn_rnn_forward():
    d = torch.device("cuda")  # kept: named for CUDA
    assert d.type


class TestCudaOps(unittest.TestCase):
    def test_add(self):
        d = torch.device("cuda")  # kept: named for CUDA
        self.assertTrue(d.type)


class GPUTestCase(unittest.TestCase):
    pass


class TestKernels(GPUTestCase):
    def test_add(self):
        d = torch.accelerator.current_accelerator()  # expect: cuda-device-call:safe -- a test base named for GPUs
        self.assertTrue(d.type)


def test_asserted_availability():
    assert torch.accelerator.is_available()
    d = torch.accelerator.current_accelerator()  # expect: cuda-device-call:safe -- fails without CUDA before it
    assert d.type


def test_asserted_device_count():
    assert torch.accelerator.device_count() >= 2, "needs two GPUs"
    d = torch.accelerator.current_accelerator()  # expect: cuda-device-call:safe -- fails without CUDA before it
    assert d.type


class _pretend_cuda:
    """A double: torch.cuda answers as a card without bfloat16, on a CPU runner."""

    def __enter__(self):
        self._saved = torch.cuda.is_available
        torch.cuda.is_available = lambda: True
        return self

    def __exit__(self, *exc):
        torch.cuda.is_available = self._saved


def test_autocast_without_bfloat16():
    with _pretend_cuda():
        d = torch.accelerator.current_accelerator()  # expect: cuda-device-call:unsafe -- a double named for CUDA is no guard
        assert d.type


def test_under_a_fake_card():
    with fake_gpu_context(count=2):
        d = torch.accelerator.current_accelerator()  # expect: cuda-device-call:unsafe -- a fake's context
        assert d.type


def test_under_a_device_context():
    with torch.get_device_module().device(0):
        d = torch.accelerator.current_accelerator()  # expect: cuda-device-call:safe -- fails without CUDA before it
        assert d.type
