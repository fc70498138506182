# devport-test: rules=all
"""A device that a check picks, whose tensors then reach a collective in the same function
(OpenRLHF's loss normalization): where it picked the CPU, a Mac ran gloo on CPU tensors; ported,
MPS tensors reach gloo, which takes CPU and CUDA tensors only."""
import torch
import torch.distributed as dist


def loss_norm(masks, dp_group):
    device = torch.accelerator.current_device_index() if torch.accelerator.is_available() else "cpu"  # expect: cuda-is-available:unsafe -- the picked device reaches all_reduce
    num_tokens = torch.zeros((), dtype=torch.float32, device=device)
    for mask in masks:
        num_tokens += mask.to(device=device, dtype=torch.float32).sum()
    if dist.is_available() and dist.is_initialized():
        dist.all_reduce(num_tokens, op=dist.ReduceOp.SUM, group=dp_group)
    return num_tokens


def no_collective(masks):
    device = torch.accelerator.current_device_index() if torch.accelerator.is_available() else "cpu"  # expect: cuda-is-available:safe
    return torch.zeros((), device=device) + len(masks)


if __name__ == "__main__":
    # cleanrl's multi-GPU PPO: the pick and the gradients' all-reduce at module level, on the
    # default gloo backend.
    dist.init_process_group("gloo")
    device = torch.device(torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu")  # expect: cuda-is-available:unsafe -- all_reduce below
    grads = torch.ones(4, device=device)
    dist.all_reduce(grads, op=dist.ReduceOp.SUM)
