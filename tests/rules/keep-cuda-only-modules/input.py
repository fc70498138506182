import unittest
from unittest import mock

import torch

v = torch.cuda.nccl.version()  # expect: keep-cuda-only-modules
torch.cuda.tunable.enable(True)  # expect: keep-cuda-only-modules
torch.cuda.memory._record_memory_history(max_entries=100)  # expect: keep-cuda-only-modules
torch.cuda.set_per_process_memory_fraction(0.5)  # expect: keep-cuda-only-modules
torch.cuda.cudart().cudaProfilerStart()  # expect: keep-cuda-only-modules
succ = int(torch.cuda.cudart().cudaHostUnregister(t.data_ptr()))  # expect: keep-cuda-only-modules
handle = storage._share_cuda_()  # expect: keep-cuda-only-modules

# Negatives.
torch.distributed.is_nccl_available()
storage._share_filename_cpu_()
cudart = None
