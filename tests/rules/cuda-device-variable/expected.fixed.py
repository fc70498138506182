import torch

device = torch.accelerator.current_accelerator().type  # expect: cuda-device-variable
self.device = torch.accelerator.current_accelerator().type  # expect: cuda-device-variable
DEVICE_TYPE = torch.accelerator.current_accelerator().type  # expect: cuda-device-variable
dev = torch.accelerator.current_accelerator().type if torch.cuda.is_available() else "cpu"  # expect: cuda-device-variable
x = torch.zeros(2, device=torch.accelerator.current_accelerator().type if use_gpu else "cpu")  # expect: cuda-device-variable
y = torch.device("cpu" if args.no_cuda else torch.accelerator.current_accelerator().type)  # expect: cuda-device-variable

# Negatives.
backend = "cuda"
device = "cpu"
device = "cuda:0"
kind = "cuda" if a else "rocm"

# In an f-string: a device string only where the string is the device, with an index at most.
run_on = f"{torch.accelerator.current_accelerator().type if use_gpu else 'cpu'}"  # expect: cuda-device-variable
target = f"{torch.accelerator.current_accelerator().type if use_gpu else 'cpu'}:{rank}"  # expect: cuda-device-variable
pinned = f"{torch.accelerator.current_accelerator().type if use_gpu else 'cpu'}:0"  # expect: cuda-device-variable
# Negatives: a part of a name (a profiler attribute), of a path, of a message.
key = f"{'cuda' if is_cuda else 'cpu'}_time_total"
prefix = f"run_{'cuda' if use_gpu else 'cpu'}"
path = f"{'cuda' if use_gpu else 'cpu'}.json"
print(f"running on {'cuda' if use_gpu else 'cpu'}")
