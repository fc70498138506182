import torch

device = torch.accelerator.current_accelerator().type  # expect: cuda-device-variable
self.device = torch.accelerator.current_accelerator().type  # expect: cuda-device-variable
DEVICE_TYPE = torch.accelerator.current_accelerator().type  # expect: cuda-device-variable
dev = torch.accelerator.current_accelerator().type if torch.cuda.is_available() else "cpu"  # expect: cuda-device-variable
x = torch.zeros(2, device=torch.accelerator.current_accelerator().type if use_gpu else "cpu")  # expect: cuda-device-variable
y = torch.device("cpu" if args.no_cuda else torch.accelerator.current_accelerator().type)  # expect: cuda-device-variable

# Negatives.
backend = "cuda"
device = "cpu"
device = "cuda:0"
kind = "cuda" if a else "rocm"
