import torch

a = x.cuda(0)  # expect: cuda-method-index
b = x.cuda(1, non_blocking=True)  # expect: cuda-method-index
c = model.cuda(device=2)  # expect: cuda-method-index

# Negatives.
d = x.cuda(rank)
e = x.cuda()
f = x.cuda("cuda:1")
