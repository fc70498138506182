"""Docstring: `model.cuda()` moves the model."""
import torch

model = Net().to(device=torch.accelerator.current_accelerator())  # expect: cuda-method
x = x.to(device=torch.accelerator.current_accelerator(), non_blocking=True)  # expect: cuda-method
y = batch["input"].to(device=torch.accelerator.current_accelerator())  # expect: cuda-method
z = torch.randn(  # expect: cuda-method
    3, 4
).to(device=torch.accelerator.current_accelerator())
w = self.weight.to(device=torch.accelerator.current_accelerator(), memory_format=torch.channels_last)  # expect: cuda-method


def to_gpu(t):
    return t.to(device=torch.accelerator.current_accelerator())  # expect: cuda-method


def step(sequence_lengths, state, n):
    # ColossalAI's llm_engine: a tensor moved and stored in a slot moved before the fix too.
    sequence_lengths[0] = torch.tensor([n], dtype=torch.int32).to(device=torch.accelerator.current_accelerator())  # expect: cuda-method:safe -- a tensor moved, not a setting
    state.lengths = torch.tensor([n]).to(device=torch.accelerator.current_accelerator())  # expect: cuda-method:safe


# Negatives: an index or device argument (other rules), attributes, strings, comments.
a = x.cuda(0)
b = x.cuda(device=1)
c = x.cuda(rank, non_blocking=True)
use_cuda = args.cuda
flag = x.is_cuda
s = "x.cuda()"
# x.cuda()
torch.cuda


def unpack(awq_qweight):
    # AutoGPTQ's AWQ unpacking: the moved value is used by the next assignment, which needed CUDA
    # before the fix too; no default that a CPU-only run left unused.
    qweight = awq_qweight.to(device=torch.accelerator.current_accelerator())  # expect: cuda-method:safe -- set again from itself
    qweight = qweight.T.contiguous()
    return qweight
