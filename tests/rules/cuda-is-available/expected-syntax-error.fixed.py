import torch

# The finding inside the broken statement is reported, but not fixed.
x = torch.cuda.is_available() +  # expect: cuda-is-available


def broken(:
    # Outside the error region: fixed.
    return torch.cuda.is_available()  # expect: cuda-is-available
