import torch


def timed(f):
    start = torch.cuda.Event(enable_timing=True)  # expect: cuda-event-class
    start.record()
    f()
    return start.cuda_event


def elapsed(f):
    # Used only as events: ported.
    start = torch.Event(enable_timing=True)  # expect: cuda-event-class
    end = torch.Event(enable_timing=True)  # expect: cuda-event-class
    start.record()
    f()
    end.record()
    end.synchronize()
    return start.elapsed_time(end)
