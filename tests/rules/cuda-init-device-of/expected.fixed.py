import torch
import torch.cuda as tc
from torch.cuda import device_of


def setup(x):
    torch.get_device_module().init()  # expect: cuda-init-device-of:unsafe -- torch.mps and torch.cpu have no init
    torch.get_device_module().init()  # expect: cuda-init-device-of:unsafe
    with torch.get_device_module().device_of(x):  # expect: cuda-init-device-of:unsafe -- only torch.cuda and torch.xpu have device_of
        y = torch.empty_like(x)
    with torch.get_device_module().device_of(  # expect: cuda-init-device-of:unsafe -- a multi-line call
        x,
    ):
        pass
    return y


# Negatives.
# A known miss: `torch.cuda.$FN` does not resolve a bare imported name (`device_of(x)` after
# `from torch.cuda import device_of`), as for the other `$FN` rules.
with device_of(x):
    pass
torch.xpu.init()
torch.cuda.initial_seed  # another function (cuda-rng's)
torch.cuda.is_initialized()  # cuda-device-properties'
model.init()
"torch.cuda.init()"
# torch.cuda.init()
