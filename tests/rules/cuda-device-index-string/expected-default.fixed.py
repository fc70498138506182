"""A device parameter that defaults to `"cuda:N"` (lerobot's ReplayBuffer: `device: str =
"cuda:0"`): the default is evaluated when the function is defined, at import, where a CPU-only
build has no accelerator: unsafe, as cuda-device-default's `"cuda"` is."""
import torch


class ReplayBuffer:
    def __init__(self, capacity: int, device: str = torch.accelerator.current_accelerator().type + ":0", storage_device: str = "cpu"):  # expect: cuda-device-index-string:unsafe
        self.device = device


def sample(batch, device=torch.accelerator.current_accelerator().type + ":1"):  # expect: cuda-device-index-string:unsafe
    return batch


async def serve(request, device=torch.accelerator.current_accelerator().type + ":0") -> None:  # expect: cuda-device-index-string:unsafe
    return None


# Negatives: another parameter, another value.
def other(x, dev="cuda:0", device="cuda", storage_device="cpu:0"):
    return x
