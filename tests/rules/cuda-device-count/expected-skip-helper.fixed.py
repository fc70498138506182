# devport-test: rules=all
"""A skip that a public function puts on the tests it is given (diffusers' and transformers'
testing utilities): the tests are in other modules, which import it; ported, a host with two
XPUs runs the "multi-GPU" tests, whatever they need."""
import unittest

import pytest
import torch


def require_torch_multi_gpu(test_case):
    return unittest.skipUnless(torch.accelerator.device_count() > 1, "test requires multiple GPUs")(test_case)  # expect: cuda-device-count:unsafe -- decides other modules' skips


def requires_gpu(func):
    return pytest.mark.skipif(not torch.accelerator.is_available(), reason="needs a GPU")(func)  # expect: cuda-is-available:unsafe


def _private_helper(test_case):
    # Negative: a private helper is the module's own.
    return unittest.skipUnless(torch.accelerator.device_count() > 1, "two GPUs")(test_case)  # expect: cuda-device-count:safe


def world_size():
    # Negative: no skip.
    return torch.accelerator.device_count()  # expect: cuda-device-count:safe


def gpu_test(gpu_count: int = 1):
    # torchtune's tests/test_utils.py: the marker is returned for the tests it decorates, which
    # other modules import (`@gpu_test(gpu_count=1)` on tests that call torch.cuda._sleep).
    message = f"Not enough GPUs to run the test: requires {gpu_count}"
    local_gpu_count: int = torch.accelerator.device_count()  # expect: cuda-device-count:unsafe -- decides other modules' skips
    return pytest.mark.skipif(local_gpu_count < gpu_count, reason=message)


def requires_cuda():
    return pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")  # expect: cuda-is-available:unsafe


def _gpu_test(gpu_count=1):
    # Negative: a private helper is the module's own.
    count = torch.accelerator.device_count()  # expect: cuda-device-count:safe
    return pytest.mark.skipif(count < gpu_count, reason="GPUs")


def gpu_count_message(gpu_count=1):
    # Negative: the count is returned in a message, with no skip.
    count = torch.accelerator.device_count()  # expect: cuda-device-count:safe
    return f"{count} of {gpu_count}"
