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
