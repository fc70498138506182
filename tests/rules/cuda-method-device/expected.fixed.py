import torch

model = model.to(device=torch.device(torch.accelerator.current_accelerator().type, self.rank))  # expect: cuda-method-device
x = x.to(device=torch.device(torch.accelerator.current_accelerator().type, ranks[r][0]))  # expect: cuda-method-device
y = y.to(device=torch.device(torch.accelerator.current_accelerator().type, local_rank), non_blocking=True)  # expect: cuda-method-device

# Negatives.
z = z.cuda(0)
w = w.cuda()
v = v.cuda(w.device)  # cuda-method-to-device's
