# devport-test: rules=all
"""A value that a name carries into a call another rule finds is only as portable as that call
(lerobot's MolmoAct2 adapters: the list of devices goes to fork_rng, whose device type stays
CUDA's unless its own, unsafe, fix is taken: ported alone, the list names an MPS or XPU device
to CUDA's generators)."""
import torch


def init_adapters(layers):
    devices = [torch.cuda.current_device()] if torch.cuda.is_available() else []  # expect: cuda-current-device:unsafe
    with torch.random.fork_rng(devices=devices):
        torch.manual_seed(6198)
        for layer in layers:
            torch.nn.init.normal_(layer.weight)


def properties():
    index = torch.cuda.current_device()  # expect: cuda-current-device:report -- the call keeps CUDA
    return torch.cuda.get_device_capability(index)


# Negatives: the call's own fix is safe; the name goes to a call no rule finds.
def select():
    index = torch.cuda.current_device()  # expect: cuda-current-device:safe
    torch.cuda.set_device(index)


def log():
    index = torch.cuda.current_device()  # expect: cuda-current-device:safe
    print(index)
