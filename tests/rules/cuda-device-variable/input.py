import torch

device = "cuda"  # expect: cuda-device-variable
self.device = 'cuda'  # expect: cuda-device-variable
DEVICE_TYPE = "cuda"  # expect: cuda-device-variable
dev = "cuda" if torch.cuda.is_available() else "cpu"  # expect: cuda-device-variable
x = torch.zeros(2, device="cuda" if use_gpu else "cpu")  # expect: cuda-device-variable
y = torch.device("cpu" if args.no_cuda else "cuda")  # expect: cuda-device-variable

# Negatives.
backend = "cuda"
device = "cpu"
device = "cuda:0"
kind = "cuda" if a else "rocm"
