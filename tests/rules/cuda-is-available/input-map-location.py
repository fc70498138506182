# devport-test: rules=all
"""`None` for torch.load's map_location restores tensors where they were saved (MONAI's HoVerNet)."""
import torch


def load_pretrained(path):
    map_location = None if torch.cuda.is_available() else torch.device("cpu")  # expect: cuda-is-available:report -- None loads CUDA tensors back to CUDA
    return torch.load(path, map_location=map_location, weights_only=True)


def load_inline(path):
    return torch.load(path, map_location=None if torch.cuda.is_available() else "cpu")  # expect: cuda-is-available:report


def load_negated(path):
    return torch.load(path, map_location="cpu" if not torch.cuda.is_available() else None)  # expect: cuda-is-available:report


def load_to_device(path):
    # A device on either side: the "cuda" has its own fix, and the tensors go to the accelerator.
    loc = "cuda" if torch.cuda.is_available() else "cpu"  # expect: cuda-is-available:safe
    return torch.load(path, map_location=loc)
