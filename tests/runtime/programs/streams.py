# runtime: safe unsafe
"""Streams and events."""
import torch

if torch.cuda.is_available():
    s = torch.cuda.Stream()
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    x = torch.ones(256, 256, device="cuda")
    start.record()
    with torch.cuda.stream(s):
        y = x @ x
    torch.cuda.current_stream().wait_stream(s)
    end.record()
    torch.cuda.synchronize()
    print(y[0, 0].item(), start.elapsed_time(end) >= 0)
print("ok")
