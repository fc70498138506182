import argparse
import dataclasses
import os

import click
import torch
import torch.distributed as dist


def parse(args):
    parser = argparse.ArgumentParser()
    parser.add_argument("--dist-backend", default=dist.get_default_backend_for_device(torch.accelerator.current_accelerator()), type=str)  # expect: nccl-backend-option-default:unsafe -- evaluated before --dist-backend gloo applies: raises without an accelerator
    parser.add_argument(
        "--backend",
        type=str,
        default=dist.get_default_backend_for_device(torch.accelerator.current_accelerator()),  # expect: nccl-backend-option-default:unsafe -- a multi-line call, YOLOX's train.py
    )
    backend = os.environ.get("DIST_BACKEND", dist.get_default_backend_for_device(torch.accelerator.current_accelerator()))  # expect: nccl-backend-option-default:unsafe
    pg = os.getenv("PG_BACKEND", dist.get_default_backend_for_device(torch.accelerator.current_accelerator()))  # expect: nccl-backend-option-default:unsafe
    chosen = getattr(args, "dist_backend", dist.get_default_backend_for_device(torch.accelerator.current_accelerator()))  # expect: nccl-backend-option-default:unsafe
    return parser.parse_args(), backend, pg, chosen


@click.command()
@click.option("--backend", default=dist.get_default_backend_for_device(torch.accelerator.current_accelerator()))  # expect: nccl-backend-option-default:unsafe
def main(backend):
    dist.init_process_group(backend)


@dataclasses.dataclass
class Config:
    backend: str = dataclasses.field(default=dist.get_default_backend_for_device(torch.accelerator.current_accelerator()))  # expect: nccl-backend-option-default:unsafe


# Negatives.
def negatives(parser):
    parser.add_argument("--dist-backend", default="gloo")
    parser.add_argument("--dist-backend", choices=["nccl", "gloo"])  # the choices, not the default
    parser.add_argument("--dist-backend", default=None, help='default: "nccl"')
    parser.add_argument("--nccl-lib", default="libnccl.so.2")  # not a backend's name
    lib = os.environ.get("NCCL_LIB", "libnccl.so.2")
    flavour = getattr(parser, "nccl", None)
    # parser.add_argument("--dist-backend", default="nccl")
    return lib, flavour
