import torch


def main(args):
    device = "cuda:0"  # expect: cuda-device-index-variable:unsafe -- set again below (line 14): maybe an unused default on a CPU-only build
    self.dev = 'cuda:1'  # expect: cuda-device-index-variable:safe
    cfg["device"] = "cuda:0"  # expect: cuda-device-index-variable:unsafe -- stored as a setting
    target_device: str = "cuda:2"  # expect: cuda-device-index-variable:safe
    kwargs = {"device": "cuda:0", "dtype": torch.float}  # expect: cuda-device-index-variable:safe
    placement = {
        "name": "x",
        "device": "cuda:3",  # expect: cuda-device-index-variable:safe -- a multi-line dict
    }
    device = "cuda:0" if torch.cuda.is_available() else "cpu"  # expect: cuda-device-index-variable:safe -- evaluated only when the guard holds
    return torch.zeros(2, **kwargs).to(device), placement


# Negatives.
def negatives():
    device = "cuda"  # cuda-device-variable's case
    backend = "cuda:0"
    device = "cpu:0"
    device = f"cuda:{rank}"
    table = {"cuda:0": 1}
    hf = {"device_map": "cuda:0"}
    if device == "cuda:0":
        pass
    # device = "cuda:0"
    return "device = 'cuda:0'"
