# devport-test: rules=all
"""A pick that asks for another accelerator first and falls back to CUDA, as a conditional
expression: the same as its `if`/`else` form, whose `else: dev = "cuda"` is found."""
import torch


def pick():
    dev = "xpu" if torch.xpu.is_available() else torch.accelerator.current_accelerator().type  # expect: cuda-device-variable
    return dev


def pick_statements():
    if torch.xpu.is_available():
        dev = "xpu"
    else:
        dev = torch.accelerator.current_accelerator().type  # expect: cuda-device-variable
    return dev


def pick_mps(model):
    return model.to("mps" if torch.backends.mps.is_available() else torch.accelerator.current_accelerator().type)  # expect: cuda-device-variable


# Negatives.
def negatives(flag):
    kind = "rocm" if flag else "cuda"  # not a device type
    backend = "xccl" if flag else "nccl"
    return "xpu" if flag else "cpu", kind, backend
