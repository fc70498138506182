import torch

a = x.to(torch.device(torch.accelerator.current_accelerator().type, 0))  # expect: cuda-method-index
b = x.to(torch.device(torch.accelerator.current_accelerator().type, 1), non_blocking=True)  # expect: cuda-method-index
c = model.to(torch.device(torch.accelerator.current_accelerator().type, 2))  # expect: cuda-method-index

# Negatives.
d = x.cuda(rank)
e = x.cuda()
f = x.cuda("cuda:1")
