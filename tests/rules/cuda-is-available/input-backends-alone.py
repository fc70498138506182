import torch


# This rule alone, without the keep rules: the guarded code is read as it is.
def fft_setup(model, n):
    # cuFFT's plan cache asks torch.cuda for the current device, on every attribute.
    if torch.cuda.is_available():  # expect: cuda-is-available:report -- cufft_plan_cache raises without CUDA
        torch.backends.cuda.cufft_plan_cache.max_size = n
    return model


def flags(model):
    # cuDNN's flags are plain attributes on every build.
    if torch.cuda.is_available():  # expect: cuda-is-available:safe
        torch.backends.cudnn.benchmark = True
    return model
