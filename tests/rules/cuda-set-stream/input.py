import torch

torch.cuda.set_stream(s)  # expect: cuda-set-stream
torch.cuda.set_stream(stream=side)  # expect: cuda-set-stream

# Negatives: a literal None is a no-op, other APIs.
torch.cuda.set_stream(None)
torch.cuda.stream(s)
torch.accelerator.set_stream(s)
