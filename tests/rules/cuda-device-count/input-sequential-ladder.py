# devport-test: rules=all
"""Per-backend ifs written one after the other (llama-cookbook's evaluation): each reduces the loss
on its own backend. Ported, the CUDA one holds on XPU too and the loss is reduced twice."""
import torch
import torch.distributed as dist
from accelerate.utils import is_xpu_available


def evaluation(eval_loss, enable_fsdp):
    if is_xpu_available() and (torch.xpu.device_count() > 1 and enable_fsdp):
        dist.all_reduce(eval_loss, op=dist.ReduceOp.SUM)
    # Comments between do not part them.
    if torch.cuda.device_count() > 1 and enable_fsdp:
        dist.all_reduce(eval_loss, op=dist.ReduceOp.SUM)
    return eval_loss


def parted(eval_loss, enable_fsdp):
    if is_xpu_available():
        print("xpu")
    eval_loss = eval_loss / 2
    if torch.cuda.device_count() > 1 and enable_fsdp:  # expect: cuda-device-count:safe -- another statement between
        dist.all_reduce(eval_loss, op=dist.ReduceOp.SUM)
    return eval_loss


def unrelated(eval_loss, enable_fsdp):
    if enable_fsdp:
        print("fsdp")
    if torch.cuda.device_count() > 1:  # expect: cuda-device-count:safe -- the if before names no backend
        dist.all_reduce(eval_loss, op=dist.ReduceOp.SUM)
    return eval_loss
