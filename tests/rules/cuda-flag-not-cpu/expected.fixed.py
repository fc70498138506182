import torch


def train(device, model):
    cuda = device.type != "cpu"  # expect: cuda-flag-not-cpu
    scaler = torch.amp.GradScaler(enabled=cuda)
    cuda = "cpu" != device.type  # expect: cuda-flag-not-cpu
    return scaler


# Negatives: a flag that says what it tests; a comparison with "cuda"; a condition.
def other(device):
    accelerated = device.type != "cpu"
    self.use_cuda = "cpu" != device.type  # another name: not found
    cuda = device.type == "cuda"
    if device.type != "cpu":
        pass
    return accelerated, cuda
