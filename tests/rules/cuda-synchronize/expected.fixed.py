import torch

torch.accelerator.synchronize()  # expect: cuda-synchronize
torch.accelerator.synchronize(0)  # expect: cuda-synchronize
torch.accelerator.synchronize(rank)  # expect: cuda-synchronize
torch.accelerator.synchronize(  # expect: cuda-synchronize
    f"cuda:{rank}",
)
torch.accelerator.synchronize()  # expect: cuda-synchronize


def timed(fn):
    torch.accelerator.synchronize(self.device)  # expect: cuda-synchronize
    fn()
    torch.accelerator.synchronize()  # expect: cuda-synchronize


# Negatives: other modules, unknown keywords, splats, non-calls.
torch.xpu.synchronize()
torch.cuda.synchronize(*devices)
torch.cuda.synchronize(dev=0)
sync = torch.cuda.synchronize
torch.accelerator.synchronize()
