# devport-test: rules=all
"""torchdiffeq's adaptive solvers (odeint's default, dopri5) keep their time steps in float64 on
the device of the state: a device that a check picks in a module that imports it reaches float64
(torchdiffeq's examples; torchdiffeq#257)."""
import argparse

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--adjoint", action="store_true")
args = parser.parse_args()

if args.adjoint:
    from torchdiffeq import odeint_adjoint as odeint
else:
    from torchdiffeq import odeint


def run(func, y0, t):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")  # expect: cuda-is-available:unsafe -- odeint works in float64 there
    return odeint(func, y0.to(device), t.to(device))
