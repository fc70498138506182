import torch

a = x.to(device=torch.device(torch.accelerator.current_accelerator().type, 0))  # expect: cuda-method-index
b = x.to(device=torch.device(torch.accelerator.current_accelerator().type, 1), non_blocking=True)  # expect: cuda-method-index
c = model.to(device=torch.device(torch.accelerator.current_accelerator().type, 2))  # expect: cuda-method-index

# A storage's `.to` takes its device as a keyword only (`UntypedStorage.to(*, device)`), as
# torch.load hands it to map_location (apex's compare.py): the fix names the keyword.
state = torch.load("ckpt.pt", map_location=lambda storage, loc: storage.to(device=torch.device(torch.accelerator.current_accelerator().type, 0)))  # expect: cuda-method-index

# Negatives.
d = x.cuda(rank)
e = x.cuda()
f = x.cuda("cuda:1")
