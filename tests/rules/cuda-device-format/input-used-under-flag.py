# devport-test: rules=all
"""A device string made unconditionally and used only where a condition says an accelerator
(F5-TTS' evaluation workers): a CPU-only run made it and never used it, where
current_accelerator() is None. The guard that uses it keeps CUDA with it."""
import torch


def run_sim(rank, test_set, model):
    device = f"cuda:{rank}"  # expect: cuda-device-format:unsafe -- used only under use_gpu
    use_gpu = True if torch.cuda.is_available() else False  # expect: cuda-is-available:unsafe -- it guards the uses of that device
    if use_gpu:
        model = model.cuda(device)
    out = []
    for x in test_set:
        if use_gpu:
            x = x.cuda(device)
        out.append(model(x))
    return out


def run_always(rank, x, model):
    device = f"cuda:{rank}"  # expect: cuda-device-format:safe -- used unconditionally
    return model.to(device)(x.to(device))


def pick(args):
    # DeepSpeedExamples' ImageNet script: a default in a torch.device(...) set again below.
    device = torch.device("cuda:{}".format(args.gpu))  # expect: cuda-device-format:unsafe -- set again below
    if args.cpu:
        device = torch.device("cpu")
    return device


def configure(cfg, i):
    cfg.device = torch.device(f"cuda:{i}")  # expect: cuda-device-format:unsafe -- a setting, read later


def on_gpu(x, i):
    d = torch.device(f"cuda:{i}")  # expect: cuda-device-format:unsafe -- only compared
    return x.device == d
