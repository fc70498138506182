import logging

import torch
from torch.cuda import memory_summary


def report(device):
    print(torch.cuda.memory_summary())  # expect: cuda-memory-summary:report -- torch.cuda only: no replacement
    logging.info(torch.cuda.memory.memory_summary(device=device, abbreviated=True))  # expect: cuda-memory-summary:report
    text = memory_summary(  # expect: cuda-memory-summary:report -- an imported name
        device,
    )
    return text


# Negatives.
torch.cuda.memory_stats()
torch.mps.driver_allocated_memory()
"see torch.cuda.memory_summary()"
# torch.cuda.memory_summary()
