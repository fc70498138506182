# devport-test: rules=all
"""A function or class named for CUDA keeps its CUDA references (docs/safety.md)."""
import torch


class CUDA_Accelerator:
    # The CUDA half of an accelerator abstraction: ported, it would answer for XPU too.
    def device_count(self):
        return torch.cuda.device_count()


class Module:
    def cuda(self, device=None):
        return self._apply(lambda t: t.cuda(device))

    def count(self):
        return torch.accelerator.device_count()  # expect: cuda-device-count:safe -- the method is not named for CUDA


def _find_cuda_home():
    return torch.cuda.device_count() > 0


def cuda_timing(fn, time):
    # Kept whole; its statements after the CUDA reference are no region of their own, and the
    # keep entry is the same either way (tests/cli/regions.sh).
    count = torch.cuda.device_count()
    start = time.perf_counter()
    fn(count)
    return time.perf_counter() - start


def is_cudagraph_safe():
    # `cudagraph` is another word.
    return torch.accelerator.device_count() > 0  # expect: cuda-device-count:safe


def _has_nvidia_gpu():
    # unsloth's export: "True only on a real NVIDIA CUDA box"; ported, XPU and a Mac pass.
    return torch.cuda.device_count() > 0 and torch.version.hip is None


class NvidiaSmiMonitor:
    def gpus(self):
        return torch.cuda.device_count()
