import torch

s = torch.accelerator.current_stream()  # expect: cuda-current-stream
s = torch.accelerator.current_stream(dev)  # expect: cuda-current-stream
s = torch.accelerator.current_stream(dev)  # expect: cuda-current-stream
handle = torch.cuda.current_stream().cuda_stream  # expect: cuda-current-stream

# Negatives.
torch.cuda.Stream()
torch.cuda.default_stream()
torch.accelerator.current_stream()
