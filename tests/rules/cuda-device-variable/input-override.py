"""A device variable set to "cuda" and set again below holds a default: on a CPU-only build the
string was never used, while current_accelerator() raises there (docs/safety.md)."""
import torch


def main(args, x):
    device = "cuda"  # expect: cuda-device-variable:unsafe -- set again when --cpu is given
    if args.cpu:
        device = "cpu"
    return x.to(device)


def guarded(args, x):
    device = "cuda" if torch.cuda.is_available() else "cpu"  # expect: cuda-device-variable:safe -- only evaluated with an accelerator
    if args.cpu:
        device = "cpu"
    return x.to(device)


def once(x):
    device = "cuda"  # expect: cuda-device-variable:safe -- used as it is
    return x.to(device)


class Runner:
    def setup(self, args):
        self.device = "cuda"  # expect: cuda-device-variable:unsafe
        if args.cpu:
            self.device = "cpu"


def add_config(cfg):
    # A setting is read later, maybe after a CPU-only run replaced it.
    cfg.MODEL.DEVICE = "cuda"  # expect: cuda-device-variable:unsafe -- stored as a setting
