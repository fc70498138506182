# devport-test: rules=all  # expect: keep-cuda-role-module
# A module named for CUDA (input-cuda.py): every generic finding here is kept, none fixed.
import torch


class CudaAccelerator:
    def is_available(self):
        return torch.cuda.is_available()

    def device_count(self):
        return torch.cuda.device_count()

    def device_name(self, index):
        return "cuda:{}".format(index)
