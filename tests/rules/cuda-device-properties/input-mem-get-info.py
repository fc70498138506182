# devport-test: target-torch=2.10
import torch


def free_memory(device=None):
    # Never rewritten to torch.accelerator.get_memory_info: its first release is unconfirmed
    # (RULES.md 1.2), so even for 2.10 the fix stays on the device module.
    free, total = torch.cuda.mem_get_info()  # expect: cuda-device-properties:unsafe -- torch.mps, torch.mtia and torch.cpu have no mem_get_info
    free, _ = torch.cuda.memory.mem_get_info(device)  # expect: cuda-device-properties:unsafe
    return free
