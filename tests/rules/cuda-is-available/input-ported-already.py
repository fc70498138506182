# devport-test: rules=all
"""Guards whose code was ported already (by hand, or by an earlier `devport fix`): the review
judges them as it judged the CUDA code before, or a second `fix` would port the guard that the
first one kept."""
import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP


def peak():
    if torch.cuda.is_available():  # expect: cuda-is-available:unsafe -- MPS has no reset_peak_memory_stats
        torch.accelerator.reset_peak_memory_stats()
    return 0


def wrap(model):
    if torch.cuda.is_available():  # expect: cuda-is-available:unsafe -- gloo gets MPS parameters on a Mac
        model = model.to(torch.accelerator.current_accelerator())
        model = DDP(model)
    return model


def reduce(t):
    if torch.cuda.is_available():  # expect: cuda-is-available:unsafe -- gloo gets MPS tensors on a Mac
        dist.init_process_group(dist.get_default_backend_for_device(torch.accelerator.current_accelerator()))
        t = t.to(device=torch.accelerator.current_accelerator().type + ":0")
        dist.all_reduce(t)
    return t


def run(device):
    x = torch.arange(3.0).to(device)
    dist.init_process_group(dist.get_default_backend_for_device(torch.accelerator.current_accelerator()))
    dist.all_reduce(x)


def main():
    if torch.cuda.is_available():  # expect: cuda-is-available:unsafe -- run() hands gloo MPS tensors on a Mac
        run(torch.device(torch.accelerator.current_accelerator().type, 0))


def gloo_group(model):
    # PyTorch's test_replicate_with_compiler: a gloo group, and the device in a variable.
    if torch.cuda.is_available():  # expect: cuda-is-available:report -- gloo takes CPU and CUDA tensors only
        device = torch.accelerator.current_accelerator()
        dist.init_process_group("gloo")
        return DDP(model.to(device))
    return model


def samples(t):
    # PyTorch's OpInfo samples after a first fix: float64 beside a device in a dict, or picked.
    out = [dict(dtype=torch.float64)]
    if torch.cuda.is_available():  # expect: cuda-is-available:unsafe -- a float64 sample moved
        out.append({"device": torch.accelerator.current_accelerator().type})
    if torch.cuda.is_available():  # expect: cuda-is-available:unsafe -- the same, picked
        other = torch.accelerator.current_accelerator().type if t.device.type == "cpu" else "cpu"
        out.append(dict(device=other))
    return out


# Negatives: code that runs on every accelerator; code that says CUDA.
def sync():
    if torch.cuda.is_available():  # expect: cuda-is-available:safe
        torch.accelerator.synchronize()


def check_type():
    if torch.cuda.is_available():  # expect: cuda-is-available:report -- it compares the type with "cuda"
        return torch.accelerator.current_accelerator().type == "cuda"
    return False
