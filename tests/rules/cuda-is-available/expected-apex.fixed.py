# devport-test: rules=all
"""NVIDIA's apex in guarded code (docs/safety.md): its fused modules import its CUDA extensions."""
import torch

try:
    from apex.normalization import FusedLayerNorm as _FusedLayerNorm

    has_fused_layernorm = True
except ImportError:
    has_fused_layernorm = False

import apex


def LayerNorm(normalized_shape, eps=1e-5, export=False):
    # fairseq's factory: ported, a Mac with apex installed builds FusedLayerNorm.
    if not export and torch.cuda.is_available() and has_fused_layernorm:  # expect: cuda-is-available:report -- CUDA-only
        return _FusedLayerNorm(normalized_shape, eps)
    return torch.nn.LayerNorm(normalized_shape, eps)


def initialize(model, optimizer):
    if torch.cuda.is_available():  # expect: cuda-is-available:report -- CUDA-only
        model, optimizer = apex.amp.initialize(model, optimizer)
    return model, optimizer


def portable(model):
    # Negative: no apex in what it guards.
    if torch.accelerator.is_available():  # expect: cuda-is-available:safe
        model = model.to(torch.bfloat16)
    return model


from apex import amp


def autocast_only(model, x):
    # Negative: `amp` after a `.` is torch's, not the name apex's import binds.
    if torch.accelerator.is_available():  # expect: cuda-is-available:safe
        with torch.amp.autocast(torch.accelerator.current_accelerator().type):  # expect: cuda-device-type-string
            return model(x)
    return model(x)
