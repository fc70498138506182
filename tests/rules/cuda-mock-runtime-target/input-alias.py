"""The patch target is a string: the file's own alias of torch never goes into it."""
from unittest import mock

import torch as t


def test_count():
    with mock.patch("torch.cuda.device_count", return_value=2):  # expect: cuda-mock-runtime-target:unsafe
        assert t.cuda.device_count() == 2
