import torch
import torch.cuda

idx = torch.accelerator.current_device_index()  # expect: cuda-current-device
dev = torch.device("cuda", torch.accelerator.current_device_index())  # expect: cuda-current-device
print(f"on {torch.accelerator.current_device_index()}")  # expect: cuda-current-device

# Negatives.
torch.cuda.current_device
torch.accelerator.current_device_index()
"torch.cuda.current_device()"
