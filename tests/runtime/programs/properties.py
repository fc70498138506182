# runtime: safe unsafe
"""What the device reports about itself."""
import torch

if torch.cuda.is_available():
    props = torch.cuda.get_device_properties(0)
    name = torch.cuda.get_device_name(0)
    print(props.total_memory > 0, name == props.name, torch.cuda.is_initialized())
print(torch.cuda.is_available() or "cpu")
