# devport-test: rules=all
"""A call that a test double in the same test replaces (skorch's, ignite's, litgpt's tests)."""
from unittest import mock
from unittest.mock import patch

import torch


def test_patched():
    with patch("torch.accelerator.is_available", return_value=True):
        assert torch.accelerator.is_available()  # expect: cuda-is-available:unsafe -- the double answers it
    assert torch.accelerator.is_available() in (True, False)  # expect: cuda-is-available:safe -- after the with


@mock.patch("mylib.utils.torch.accelerator.is_available", return_value=False)
def test_decorated(_):
    assert not torch.accelerator.is_available()  # expect: cuda-is-available:unsafe


def test_monkeypatched(monkeypatch):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert torch.accelerator.is_available()  # expect: cuda-is-available:unsafe
