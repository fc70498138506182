import torch


def move(w, x, device, target_device, self):
    w = w.to(device=w.device)  # expect: cuda-method-to-device:safe -- .to() takes the device as it is
    x = x.to(device=device)  # expect: cuda-method-to-device:safe
    y = x.to(device=target_device, non_blocking=True)  # expect: cuda-method-to-device:safe
    z = x.to(device=self.dev)  # expect: cuda-method-to-device:safe
    # Negatives: an index or a rank is cuda-method-index's and cuda-method-device's.
    a = x.cuda(0)
    b = x.cuda(self.rank)
    c = x.cuda()
    d = x.cuda(devices[0])
    e = x.cuda(device_id)
    return w, x, y, z, a, b, c, d, e


def move_or_default(x, device=None, other_device: Optional[torch.device] = None):
    # `.cuda(None)` moves to the current CUDA device; `.to(None)` does not move at all.
    y = x.to(device=device)  # expect: cuda-method-to-device:unsafe -- device defaults to None
    z = x.to(device=other_device)  # expect: cuda-method-to-device:unsafe -- other_device defaults to None
    return y, z


def move_given(x, device="cuda:0"):
    return x.to(device=device)  # expect: cuda-method-to-device:safe -- a default that is a device
