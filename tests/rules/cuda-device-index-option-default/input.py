import argparse
import dataclasses
import os

import torch


def parse():
    parser = argparse.ArgumentParser()
    parser.add_argument("--policy-device", default="cuda:0")  # expect: cuda-device-index-option-default:unsafe -- torchrl's collectors: evaluated before --policy-device cpu applies
    parser.add_argument(
        "--train-device",
        type=str,
        default='cuda:1',  # expect: cuda-device-index-option-default:unsafe -- a multi-line call, another index
    )
    device = os.environ.get("DEVICE", "cuda:0")  # expect: cuda-device-index-option-default:unsafe
    dev = os.getenv("TORCH_DEVICE", "cuda:0")  # expect: cuda-device-index-option-default:unsafe
    chosen = getattr(args, "device", "cuda:0")  # expect: cuda-device-index-option-default:unsafe
    return parser.parse_args(), device, dev, chosen


@dataclasses.dataclass
class Options:
    device: str = dataclasses.field(default="cuda:0")  # expect: cuda-device-index-option-default:unsafe -- a dataclass field


def from_config(cfg, **kwargs):
    device = cfg.get("device", "cuda:0")  # expect: cuda-device-index-option-default:unsafe -- verl's config
    dev = kwargs.pop("device", "cuda:1")  # expect: cuda-device-index-option-default:unsafe
    other = cfg.get("backend", "cuda:0")  # the key does not name a device
    return device, dev, other


# Negatives.
def negatives(parser):
    parser.add_argument("--device", default="cuda")  # cuda-device-option-default's
    parser.add_argument("--device", default="cpu:0")
    parser.add_argument("--device", choices=["cuda:0", "cpu"])  # the choices, not the default
    parser.add_argument("--device", default=None, help='default: "cuda:0"')
    parser.add_argument("--device", default="cuda:x")  # not an index
    backend = os.environ.get("BACKEND", "cuda:0")  # the variable does not name a device
    # parser.add_argument("--device", default="cuda:0")
    return backend
