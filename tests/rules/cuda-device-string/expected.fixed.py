"""
>>> torch.zeros(2, device="cuda")  # expect: cuda-device-string
"""
import torch
from torch.testing._internal.common_methods_invocations import DecorateInfo

x = torch.zeros(3, device=torch.accelerator.current_accelerator().type)  # expect: cuda-device-string
y = torch.randn(
    2, 3,
    dtype=torch.float16,
    device=torch.accelerator.current_accelerator().type,  # expect: cuda-device-string
)
z = y.to(torch.accelerator.current_accelerator().type)  # expect: cuda-device-string
w = y.to(torch.accelerator.current_accelerator().type, non_blocking=True)  # expect: cuda-device-string
state = torch.load(path, map_location=torch.accelerator.current_accelerator().type)  # expect: cuda-device-string
torch.set_default_device(torch.accelerator.current_accelerator().type)  # expect: cuda-device-string
g = torch.Generator(device=torch.accelerator.current_accelerator().type)  # expect: cuda-device-string
g2 = torch.Generator(torch.accelerator.current_accelerator().type)  # expect: cuda-device-string
run(model, device=torch.accelerator.current_accelerator().type)  # expect: cuda-device-string
ctx = LazyInitContext(default_device=torch.accelerator.current_accelerator().type)  # expect: cuda-device-string -- ColossalAI's: where the lazy model materializes

# Negatives: checks, metadata, keys, registrations, other strings.
if x.device.type == "cuda":
    pass
info = DecorateInfo(unittest.expectedFailure, "TestFoo", "test_bar", device_type="cuda")
table = {"cuda": ".cubin", "xpu": ".spv"}
lib_impl = torch.library.impl(lib, "my_op", "CUDA")
message = "running on cuda"
torch.zeros(3, device="cuda:0")
torch.zeros(3, device=dev)
# torch.zeros(3, device="cuda")
autocast_kind = torch.autocast(device_type="cuda")
