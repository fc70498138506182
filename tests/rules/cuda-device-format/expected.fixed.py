import torch

a = torch.accelerator.current_accelerator().type + ":" + str(local_rank)  # expect: cuda-device-format
b = torch.device(torch.accelerator.current_accelerator().type + ":" + str(i))  # expect: cuda-device-format
c = torch.accelerator.current_accelerator().type + ":" + str(rank)  # expect: cuda-device-format
d = torch.accelerator.current_accelerator().type + ":" + str(self.rank)  # expect: cuda-device-format
e = torch.accelerator.current_accelerator().type + ":" + str(ranks["a"])  # expect: cuda-device-format

# Negatives.
msg = f"cuda:{rank} failed"
other = f"xpu:{rank}"
plain = "cuda:0"
