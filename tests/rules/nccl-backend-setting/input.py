"""`"nccl"` in a configuration dict: found, fixed only with --unsafe-fixes."""
import torch


class Runner:
    # mmengine's Runner: the default is read only when the run is distributed.
    def __init__(self, launcher="none", dist_cfg=dict(backend="nccl")):  # expect: nccl-backend-setting:unsafe
        self.launcher = launcher
        self.dist_cfg = dist_cfg


def configure(timeout):
    env_cfg = dict(
        cudnn_benchmark=False,
        dist_cfg=dict(backend='nccl', timeout=timeout),  # expect: nccl-backend-setting:unsafe
    )
    return env_cfg


def accelerate_kwargs(timeout):
    # accelerate's process-group settings (diffusers' CogVideoX training scripts): built on every
    # run, handed to init_process_group only when a process group starts. A single-process run on
    # a CPU-only build never used the "nccl".
    from accelerate.utils import InitProcessGroupKwargs

    return InitProcessGroupKwargs(backend="nccl", timeout=timeout)  # expect: nccl-backend-setting:unsafe


# Negatives: another backend, another key, a dict literal with another meaning.
GLOO = dict(backend="gloo")
MODE = dict(mode="nccl")
