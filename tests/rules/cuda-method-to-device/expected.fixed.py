import torch


def move(w, x, device, target_device, self):
    w = w.to(w.device)  # expect: cuda-method-to-device:safe -- .to() takes the device as it is
    x = x.to(device)  # expect: cuda-method-to-device:safe
    y = x.to(target_device, non_blocking=True)  # expect: cuda-method-to-device:safe
    z = x.to(self.dev)  # expect: cuda-method-to-device:safe
    # Negatives: an index or a rank is cuda-method-index's and cuda-method-device's.
    a = x.cuda(0)
    b = x.cuda(self.rank)
    c = x.cuda()
    d = x.cuda(devices[0])
    e = x.cuda(device_id)
    return w, x, y, z, a, b, c, d, e
