import unittest

import torch


def check(x, t):
    assert x.type() == "torch.cuda.HalfTensor"  # expect: cuda-legacy-tensor-type:report -- a type name: CUDA and a dtype in one string
    if 'torch.cuda.FloatTensor' != t.type():  # expect: cuda-legacy-tensor-type:report
        pass
    y = x.type("torch.cuda.DoubleTensor")  # expect: cuda-legacy-tensor-type:report -- a conversion to CUDA
    if x.type() in ("torch.cuda.HalfTensor", "torch.cuda.FloatTensor"):  # expect: cuda-legacy-tensor-type:report -- a membership check
        pass
    if t.type() not in ['torch.HalfTensor', 'torch.cuda.HalfTensor']:  # expect: cuda-legacy-tensor-type:report
        pass
    return y


class TestTypes(unittest.TestCase):
    def test_type(self):
        x = torch.ones(2)
        self.assertEqual(x.cuda().type(), "torch.cuda.FloatTensor")  # expect: cuda-legacy-tensor-type:report -- a test's expected value


# Negatives.
TRACED = {"torch.cuda.FloatTensor", "torch.cuda.nvtx.range_push"}  # names stored as data
if x.type() == "torch.FloatTensor":
    pass
if x.type() == "torch.cuda.Stream":
    pass
if x.type() in ("torch.FloatTensor", "torch.HalfTensor"):
    pass
KINDS = ["torch.cuda.HalfTensor", "torch.cuda.FloatTensor"]  # a list stored as data
# assert x.type() == "torch.cuda.HalfTensor"
