# devport-test: target-torch=2.8
from unittest.mock import patch

# Before 2.9 the code under test goes through torch.get_device_module(): no target to patch.
patch("torch.cuda.empty_cache")  # expect: cuda-mock-memory-target:report -- no torch.accelerator.empty_cache before 2.9
patch("torch.cuda.memory_stats", return_value={})  # expect: cuda-mock-memory-target:report
