# devport-test: rules=all
"""`nn.DataParallel` is CUDA code in what a check guards: it scatters with torch._C._scatter,
which only CUDA builds register, and wraps nothing on a Mac (tianshou's DataParallelNet)."""
import torch
from torch import nn
from torch.nn.parallel import DistributedDataParallel


def wrap(model):
    if torch.cuda.device_count() > 1:  # expect: cuda-device-count:report -- DataParallel stays CUDA's
        model = nn.DataParallel(model)
    return model


def wrap_ddp(model, rank):
    if torch.cuda.device_count() > 1:  # expect: cuda-device-count:safe -- DDP runs on any backend
        model = DistributedDataParallel(model)
    return model


def main(args):
    # transformers' example scripts keep the count in the arguments:
    # `args.n_gpu` guards DataParallel as a name would.
    args.n_gpu = 0 if args.no_gpu else torch.cuda.device_count()  # expect: cuda-device-count:report -- args.n_gpu guards DataParallel
    model = nn.Linear(4, 2)
    if args.n_gpu > 1:
        model = nn.DataParallel(model)
    return model


def count_only(opts):
    opts.n_devices = torch.cuda.device_count()  # expect: cuda-device-count:safe -- only printed
    print(opts.n_devices)


def train(args, model):
    if args.n_gpus > 1:
        model = nn.DataParallel(model)
    return model


def script_main(args):
    # The count set in main(), read by train() that it hands `args` to.
    args.n_gpus = torch.cuda.device_count()  # expect: cuda-device-count:report -- train() guards DataParallel with it
    return train(args, nn.Linear(4, 2))


def benchmark_main(args):
    # The check before the count decides whether to count: no use of it.
    if args.n_processes == "n_gpus":
        args.n_processes = torch.cuda.device_count()  # expect: cuda-device-count:safe -- only its own check reads it before
    return args.n_processes
