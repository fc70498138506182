# devport-test: rules=all
import pytest
import torch


class TestPrecision:
    # torchtune's test_precision.py: the test asserts what a CUDA run of the code under test
    # leaves in cuDNN's and CUDA matmul's flags; elsewhere those stay as they were.
    cuda_available: bool = torch.cuda.is_available()  # expect: cuda-is-available:report -- the skip guards assertions about cuDNN's state

    @pytest.mark.skipif(not cuda_available, reason="The test requires GPUs to run.")
    def test_set_float32_precision(self) -> None:
        set_precision("highest")
        assert not torch.backends.cudnn.allow_tf32
        assert not torch.backends.cuda.matmul.allow_tf32


class TestAssertMethods:
    @pytest.mark.skipif(not torch.cuda.is_available(), reason="needs cuDNN")  # expect: cuda-is-available:report -- an assertion method about cuDNN
    def test_cudnn(self):
        self.assertTrue(torch.backends.cudnn.is_available())


# Negative: an assertion about something else in guarded code runs on any build (cuDNN
# settings there do too: input-guards.py).
def moves(model):
    if torch.accelerator.is_available():  # expect: cuda-is-available:safe
        assert model is not None
        model = model.to(device=torch.accelerator.current_accelerator())
    return model


def set_precision(p):
    torch.set_float32_matmul_precision(p)


def fft_setup(model, n):
    # peft's: every attribute of cuFFT's plan cache asks torch.cuda for the current device.
    if torch.cuda.is_available():  # expect: cuda-is-available:report -- cufft_plan_cache raises without CUDA
        torch.backends.cuda.cufft_plan_cache.max_size = n
        model = model.to(device=torch.accelerator.current_accelerator())
    return model
