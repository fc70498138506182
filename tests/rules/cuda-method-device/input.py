import torch

model = model.cuda(self.rank)  # expect: cuda-method-device
x = x.cuda(ranks[r][0])  # expect: cuda-method-device
y = y.cuda(device=local_rank, non_blocking=True)  # expect: cuda-method-device

# Negatives.
z = z.cuda(0)
w = w.cuda()
v = v.cuda(w.device)  # cuda-method-to-device's
