"""A check whose value turns on half precision or autocast (yolov5's val.py: `opt.half =
torch.cuda.is_available() and opt.device != "cpu"`, then the model runs in float16 wherever its
own device selection put it, the CPU on an XPU host; sentence-transformers' tests: `use_amp=
torch.cuda.is_available()`): ported, other accelerators and the CPU they may leave the model on
compute in float16 where they computed in float32."""
import torch


def main(opt, model):
    opt.half = torch.accelerator.is_available() and opt.device != "cpu"  # expect: cuda-is-available:unsafe
    return run(model, half=opt.half)


def fit(model, data):
    model.fit(data, use_amp=torch.accelerator.is_available())  # expect: cuda-is-available:unsafe
    fp16 = torch.accelerator.is_available()  # expect: cuda-is-available:unsafe
    return fp16


# Negatives: a flag that says nothing of precision.
def other(opt):
    opt.pin = torch.accelerator.is_available()  # expect: cuda-is-available:safe
    use_gpu = torch.accelerator.is_available()  # expect: cuda-is-available:safe
    return use_gpu


def cog_setup(model_path):
    # GFPGAN's and Real-ESRGAN's cog predictors: the check's value, as a conditional.
    half = True if torch.accelerator.is_available() else False  # expect: cuda-is-available:unsafe -- float16 off CUDA
    workers = 4 if torch.accelerator.is_available() else 0  # expect: cuda-is-available:safe -- not a flag of half precision
    return half, workers
