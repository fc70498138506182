# devport-test: rules=all target-torch=2.9
"""A check that keeps the accelerator memory API off a Mac (sam2's trainer): MPS does not implement
torch.accelerator's memory functions (pytorch#167447), so a ported check lets a Mac call one that
raises, where the CUDA check kept it out."""
import torch


def validate(model, batch):
    if torch.accelerator.is_available():  # expect: cuda-is-available:unsafe -- the guarded reset raises on MPS once ported
        torch.accelerator.reset_peak_memory_stats()
    return model(batch)


def synchronized(model, batch):
    if torch.accelerator.is_available():  # expect: cuda-is-available:safe -- synchronize is every backend's
        torch.accelerator.synchronize()
    return model(batch)
