# devport-test: rules=all
"""NVIDIA's management library behind a CUDA check stays NVIDIA's (ignite's GpuInfo)."""
import torch


class GpuInfo:
    def __init__(self):
        from pynvml.smi import nvidia_smi

        if not torch.cuda.is_available():  # expect: cuda-is-available:report -- nvidia_smi needs an NVIDIA GPU
            raise RuntimeError("This contrib module requires available GPU")
        self.nvsmi = nvidia_smi.getInstance()
