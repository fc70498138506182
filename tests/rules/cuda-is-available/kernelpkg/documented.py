"""A module of the project that only documents Triton: its docstring says, at column 0,

import triton
from triton import language

and a comment says it too; none of it is an import.
"""
import torch

EXAMPLE = '''
import triton
'''


def scale(x):
    return x * torch.ones(1)
