# devport-test: rules=all
"""Tests that a CPU-only CI runs (docs/safety.md): a test that passed there never used the device
it names, and torch.accelerator.current_accelerator() raises there (2.6) or is None (2.7+)."""
import unittest

import pytest
import torch
from helpers import HAS_GPU
from hypothesis import example, given, strategies as st
from torch.testing._internal.common_utils import largeTensorTest


def test_device_as_key():
    # A device as a key only: the test passes on a CPU-only build.
    cache = {torch.device("cuda"): 1}  # expect: cuda-device-call:unsafe -- a CPU-only CI runs the test
    assert len(cache) == 1


def test_nested_helper():
    def make():
        return torch.device("cuda")  # expect: cuda-device-call:unsafe -- in the test that calls it

    assert make().type


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a GPU")
def test_skipped_without_gpu():
    d = torch.device("cuda")  # expect: cuda-device-call:safe -- skipped without CUDA
    assert d.type


def test_early_exit():
    if not torch.cuda.is_available():
        pytest.skip("needs a GPU")
    d = torch.device("cuda")  # expect: cuda-device-call:safe -- skipped without CUDA
    assert d.type


def test_early_exit_on_flag():
    # Nothing in the condition is a finding: region parsing keeps it for the review all the same.
    if not HAS_GPU:
        pytest.skip("needs a GPU")
    d = torch.device("cuda")  # expect: cuda-device-call:safe -- skipped without a GPU
    assert d.type


def test_asserted_flag():
    assert HAS_GPU, "needs a GPU"
    d = torch.device("cuda")  # expect: cuda-device-call:safe -- fails without a GPU before it
    assert d.type


def test_under_check():
    if torch.cuda.is_available():
        d = torch.device("cuda")  # expect: cuda-device-call:safe -- runs only with CUDA
        assert d.type


@given(index=st.integers(0, 3), device=st.sampled_from(["cpu", "cuda"]))
@example(index=0, device="cuda")  # expect: cuda-device-string:unsafe -- evaluated where the test is defined
def test_given_values(index, device):
    # hypothesis gives the test its values, whatever they name: no skip.
    d = torch.device("cuda")  # expect: cuda-device-call:unsafe -- a CPU-only CI runs the test
    assert d.type


@largeTensorTest("4GB", "cuda")
def test_large_tensor():
    d = torch.device("cuda")  # expect: cuda-device-call:safe -- skipped without CUDA memory
    assert d.type


def test_in_try():
    try:
        d = torch.device("cuda")  # expect: cuda-device-call:unsafe -- a try catches RuntimeError, not the AttributeError of None.type
        assert d.type
    except RuntimeError:
        pytest.skip("no GPU")


def test_allocates_first():
    x = torch.ones(2, device="cuda")
    d = torch.device("cuda")  # expect: cuda-device-call:safe -- the test allocated on CUDA first: it failed on a CPU-only build before
    assert x.device == d


def test_device_in_call():
    assert torch.ones(2, device=torch.device("cuda")).is_cuda  # expect: cuda-device-call:safe -- the call uses the device


def test_roi_align_cuda():
    # Named for CUDA (beside its CPU twin): kept, with every CUDA reference in it.
    d = torch.device("cuda")
    assert d.type


class TestDevices(unittest.TestCase):
    @unittest.skipIf(not torch.cuda.is_available(), "no GPU")
    def test_method(self):
        d = torch.device("cuda")  # expect: cuda-device-call:safe
        self.assertTrue(d.type)

    def test_unguarded_method(self):
        d = torch.device("cuda")  # expect: cuda-device-call:unsafe
        self.assertTrue(d.type)

    def helper(self):
        # Not a test itself (docs/safety.md: code in a function runs when it is called).
        return torch.device("cuda")  # expect: cuda-device-call:safe


@unittest.skipIf(not torch.cuda.is_available(), "no GPU")
class TestSkippedClass(unittest.TestCase):
    def test_method(self):
        d = torch.device("cuda")  # expect: cuda-device-call:safe -- the class is skipped without CUDA
        self.assertTrue(d.type)


class TestCudaOps(unittest.TestCase):
    def test_method(self):
        # The class is named for CUDA: kept.
        d = torch.device("cuda")
        self.assertTrue(d.type)


def library_code():
    # Not a test (docs/safety.md).
    return torch.device("cuda")  # expect: cuda-device-call:safe
