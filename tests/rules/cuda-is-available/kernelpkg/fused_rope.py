# A kernel module of the project (axolotl's kernels/gemma4_fused_rope.py): Triton at its top.
import torch
import triton
import triton.language as tl


def fused_rope(x):
    return x, triton, tl, torch
