# runtime: safe unsafe
"""Streams used as streams, and one raw handle handed on."""
import torch

if torch.cuda.is_available():
    side = torch.cuda.Stream()
    main = torch.cuda.current_stream()
    handle = main.cuda_stream
    with torch.cuda.stream(side):
        y = torch.ones(4, device="cuda") * 2
    main.wait_stream(side)
    torch.cuda.synchronize()
    print(isinstance(handle, int), y.sum().item())
print("ok")
