import torch
from torch.profiler import ProfilerActivity, profile


def trace(step):
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:  # expect: cuda-profiler-activity
        step()
    return prof


activities = [torch.profiler.ProfilerActivity.CPU]
if torch.cuda.is_available():
    activities.append(torch.profiler.ProfilerActivity.CUDA)  # expect: cuda-profiler-activity


# Negatives: other activities, a string, another enum's CUDA.
xpu = [ProfilerActivity.XPU, ProfilerActivity.CPU]
name = "ProfilerActivity.CUDA"
kind = DeviceType.CUDA
