import gc

import torch
import torch.cuda as tc

torch.accelerator.empty_cache()  # expect: cuda-empty-cache
torch.accelerator.empty_cache()  # expect: cuda-empty-cache
torch.accelerator.empty_cache()  # expect: cuda-empty-cache
torch.accelerator.empty_cache()  # expect: cuda-empty-cache
if True:
    gc.collect(); torch.accelerator.empty_cache()  # expect: cuda-empty-cache


# Negatives.
torch.cuda.empty_cache(0)
torch.xpu.empty_cache()
torch.mps.empty_cache()
torch.accelerator.empty_cache()
# torch.cuda.empty_cache() in a comment
fn = torch.cuda.empty_cache
