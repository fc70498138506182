import torch

a = f"cuda:{local_rank}"  # expect: cuda-device-format
b = torch.device("cuda:" + str(i))  # expect: cuda-device-format
c = "cuda:%d" % rank  # expect: cuda-device-format
d = "cuda:{}".format(self.rank)  # expect: cuda-device-format
e = f'cuda:{ranks["a"]}'  # expect: cuda-device-format

# Negatives.
msg = f"cuda:{rank} failed"
other = f"xpu:{rank}"
plain = "cuda:0"
