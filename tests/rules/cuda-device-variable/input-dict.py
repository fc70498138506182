import torch


def make_inputs(size):
    options = {"device": "cuda", "dtype": torch.float}  # expect: cuda-device-variable:safe -- spread into a factory call: it needed CUDA before
    cases = [
        ("rand", (size,), {"dtype": torch.float, "device": 'cuda'}),  # expect: cuda-device-variable:safe
        ("randn", (size,), {
            "requires_grad": False,
            "device_type": "cuda",  # expect: cuda-device-variable:safe -- a multi-line dict
            "dtype": torch.half,
        }),
    ]
    kwargs = {"device": "cuda"}  # expect: cuda-device-variable:safe
    kwargs["device"] = "cuda"  # expect: cuda-device-variable:unsafe -- stored as a setting (a subscript)
    target_device: str = "cuda"  # expect: cuda-device-variable:safe -- an annotated local
    return torch.zeros(size, **options), cases, kwargs, target_device


# Negatives.
def negatives():
    table = {"cuda": ".cubin", "xpu": ".spv"}  # a device-keyed table: "cuda" is a key
    names = {"backend": "cuda"}  # the key does not name a device
    hf = {"device_map": "cuda"}  # device_map is read by transformers, not torch
    big = {"a": 1, "b": 2, "c": 3, "device": "cuda"}  # four entries: beyond what the patterns list
    opts = {"device": "cpu"}
    fmt = {"device": f"cuda:{rank}"}
    # {"device": "cuda"} in a comment
    doc = '{"device": "cuda"}'
    return table, names, hf, big, opts, fmt, doc
