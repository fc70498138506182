"""`.cuda()` on an object whose class is not a tensor's or a module's: `.to()` is not the same
call there. A class of this file that defines its own `cuda()` (mmengine's data elements,
pytorch3d's structures, fairseq's generators), and bitsandbytes' Int8Params, whose `cuda()`
quantizes in place before 0.46 (text-generation-inference's layers/bnb.py; Params4bit's `cuda()`
calls its `to()`)."""
import torch
from bitsandbytes.nn import Int8Params, Params4bit


class Batch:
    def __init__(self, x):
        self.x = x

    def cuda(self):
        return Batch(self.x)


def load(x):
    b = Batch(x)
    b.cuda()  # expect: cuda-method:report -- Batch defines its own cuda()
    return b


class Linear8bitLt(torch.nn.Module):
    def __init__(self, weight):
        super().__init__()
        self.weight = Int8Params(weight.data, has_fp16_weights=False, requires_grad=False)
        self.weight.to(device=torch.accelerator.current_accelerator())  # expect: cuda-method:unsafe -- quantizes in place before bitsandbytes 0.46


# Negatives: Params4bit, a tensor, a module, a name assigned from something else, a class of
# this file assigned before but not last.
def four_bit(w):
    p = Params4bit(w, requires_grad=False)
    return p.to(device=torch.accelerator.current_accelerator())  # expect: cuda-method:safe


def plain(x):
    t = torch.ones(2)
    t = t.to(device=torch.accelerator.current_accelerator())  # expect: cuda-method:safe
    m = torch.nn.Linear(2, 2)
    m.to(device=torch.accelerator.current_accelerator())  # expect: cuda-method:safe
    b = make_batch(x)
    b.to(device=torch.accelerator.current_accelerator())  # expect: cuda-method:safe
    b = Batch(x)
    b = make_batch(x)
    return b.to(device=torch.accelerator.current_accelerator())  # expect: cuda-method:safe


# A name defined twice: the class of that name that defines `cuda` (a decorated one here) counts,
# wherever it stands.
class Sample:
    pass


@dataclass_like
class Sample:
    def cuda(self):
        return self


def sample(x):
    s = Sample(x)
    return s.cuda()  # expect: cuda-method:report -- a Sample defines its own cuda()
