# devport-test: rules=all
"""A flag assigned in a tuple guards what its uses guard (MONAI's sliding window inference)."""
import torch


def stitch(out, buf):
    non_blocking, _ss = torch.cuda.is_available(), -1  # expect: cuda-is-available:unsafe -- the stream sync stays CUDA's
    if non_blocking:
        torch.cuda.current_stream().synchronize()  # expect: cuda-current-stream:unsafe
    return out + buf


def portable(x):
    use_gpu, scale = torch.cuda.is_available(), 2.0  # expect: cuda-is-available:safe
    if use_gpu:
        x = x * scale
    return x


def nested(x):
    (a, b), c = (1, 2), torch.cuda.is_available()  # expect: cuda-is-available:safe -- a nested target: no flag followed
    return x
