import argparse
import dataclasses
import os

import click
import torch


def parse():
    parser = argparse.ArgumentParser()
    parser.add_argument("--device", default=torch.accelerator.current_accelerator().type, type=str)  # expect: cuda-device-option-default:unsafe -- evaluated before --device cpu applies: raises on a CPU-only build
    parser.add_argument(
        "--device-type",
        type=str,
        help="device",
        default=torch.accelerator.current_accelerator().type,  # expect: cuda-device-option-default:unsafe -- a multi-line call
    )
    device = os.environ.get("DEVICE", torch.accelerator.current_accelerator().type)  # expect: cuda-device-option-default:unsafe
    dev = os.getenv("TORCH_DEVICE", torch.accelerator.current_accelerator().type)  # expect: cuda-device-option-default:unsafe
    chosen = getattr(args, "device", torch.accelerator.current_accelerator().type)  # expect: cuda-device-option-default:unsafe -- timm's
    return parser.parse_args(), device, dev


def from_config(cfg, **kwargs):
    device = cfg.get("device", torch.accelerator.current_accelerator().type)  # expect: cuda-device-option-default:unsafe -- verl's config
    dev = kwargs.pop("device_type", torch.accelerator.current_accelerator().type)  # expect: cuda-device-option-default:unsafe
    other = cfg.get("backend", "cuda")  # the key does not name a device
    named = cfg.get("device")  # no default
    return device, dev, other, named


# Negatives.
def negatives(parser):
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--device", choices=["cuda", "cpu"])  # the choices, not the default
    parser.add_argument("--device", default="cuda:0")  # cuda-device-index-option-default's
    parser.add_argument("--device", default=None, help='default: "cuda"')
    backend = os.environ.get("BACKEND", "cuda")  # the variable does not name a device
    kind = getattr(args, "backend", "cuda")  # the attribute does not name a device
    # parser.add_argument("--device", default="cuda")
    return backend
