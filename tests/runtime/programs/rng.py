# runtime: safe unsafe
"""Seeding every generator, and the CUDA generator's state."""
import random

import torch


def seed_everything(seed):
    random.seed(seed)
    torch.manual_seed(seed)
    if torch.cuda.is_available():
        torch.cuda.manual_seed(seed)
        torch.cuda.manual_seed_all(seed)


seed_everything(3)
if torch.cuda.is_available():
    state = torch.cuda.get_rng_state()
    a = torch.rand(3, device="cuda")
    torch.cuda.set_rng_state(state)
    b = torch.rand(3, device="cuda")
    print(torch.equal(a, b), torch.cuda.initial_seed())
print(torch.rand(2).tolist())
