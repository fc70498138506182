# devport-test: rules=all
"""Guarded code that calls a kernel of the project's compiled extension (mmcv's op tests: `from
mmcv.ops import convex_iou`, then `convex_iou(...)` under a CUDA skip): the extension was built
for the CPU and CUDA, and MPS or XPU tensors find no kernel there. The package is extpkg/, beside
this file."""
import pytest
import torch

from extpkg import scale, sigmoid_focal_loss
from extpkg.native import nms_rotated as nms


@pytest.mark.skipif(not torch.cuda.is_available(), reason="requires CUDA")  # expect: cuda-is-available:report -- re-exported from an op module
def test_focal_loss():
    x = torch.ones(2, device=torch.accelerator.current_accelerator().type)
    assert sigmoid_focal_loss(x, x) is not None


def test_nms():
    if not torch.cuda.is_available():  # expect: cuda-is-available:report -- the module imports _C
        return
    boxes = torch.ones(2, 5, device=torch.accelerator.current_accelerator().type)
    assert nms(boxes, boxes[:, 0]) is not None


def test_scale():
    if not torch.accelerator.is_available():  # expect: cuda-is-available:safe -- plain PyTorch
        return
    assert scale(torch.ones(2, device=torch.accelerator.current_accelerator().type)) is not None


def test_local_import():
    if torch.cuda.is_available():  # expect: cuda-is-available:report -- imported where it is called
        from extpkg.focal_loss import sigmoid_focal_loss as loss
        x = torch.ones(2, device=torch.accelerator.current_accelerator().type)
        return loss(x, x)
    return None


def test_on_cpu_tensors():
    # mmcv's NMS tests: the op runs on CPU tensors whatever the check says.
    if not torch.accelerator.is_available():  # expect: cuda-is-available:safe -- no tensor goes to the device
        return
    x = torch.ones(2)
    assert sigmoid_focal_loss(x, x) is not None


def fast_or_slow(x):
    # fairseq's dynamic convolution: a failed import falls back to plain PyTorch.
    if torch.accelerator.is_available():  # expect: cuda-is-available:safe -- the failed import is caught
        try:
            from extpkg.focal_loss import sigmoid_focal_loss as fast

            return fast(x.to(device=torch.accelerator.current_accelerator()), x.to(device=torch.accelerator.current_accelerator()))
        except ImportError:
            pass
    return x
