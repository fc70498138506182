# devport-test: rules=all
"""A device picked at module level that float64 later in the module reaches (nequip's dimer plot:
a `--device` default, then float64 positions moved there; mace's freeze tests)."""
import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--device", default=torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu")  # expect: cuda-is-available:unsafe -- float64 below
args = parser.parse_args()


def positions(n):
    return torch.zeros(n, 3, dtype=torch.float64).to(args.device)


@torch.no_grad()
def main(model):
    if not torch.cuda.is_available():  # expect: cuda-is-available:report -- .double() on the device only CUDA ran
        return None
    return model(torch.ones(3, device=torch.accelerator.current_accelerator().type).double())
