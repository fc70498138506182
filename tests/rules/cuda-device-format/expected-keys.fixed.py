# devport-test: rules=all
"""A CUDA device string as a key names where something was saved or sits, not where to run
(avalanche's and pytorch3d's checkpoint maps, the DDP tutorial's map_location)."""
import torch


def make_map(device):
    map_location = dict()
    map_location["cpu"] = "cpu"
    for cuda_idx in range(100):
        map_location[f"cuda:{cuda_idx}"] = str(device)  # expect: cuda-device-format:report -- a key
    return map_location


def load_checkpoint(path, rank):
    map_location = {
        "cuda:%d" % 0:  # expect: cuda-device-format:report -- the key
        torch.accelerator.current_accelerator().type + ":" + str(rank)  # expect: cuda-device-format:unsafe -- what the key maps to
    }
    return torch.load(path, map_location=map_location)


def pick(rank):
    device = torch.accelerator.current_accelerator().type + ":" + str(rank)  # expect: cuda-device-format:safe -- a device choice
    return torch.ones(2, device=device)
