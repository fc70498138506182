# devport-test: rules=all
"""A device count that bounds a loop guards the loop's body (docs/safety.md)."""
import torch


def names():
    # On a Mac the ported count is 1 and torch.cuda.get_device_name(0) raises, where the list was empty.
    return [torch.get_device_module().get_device_name(i) for i in range(torch.accelerator.device_count())] or None  # expect: cuda-device-count:unsafe -- get_device_name's fix is unsafe


def properties():
    for i in range(torch.accelerator.device_count()):  # expect: cuda-device-count:unsafe -- the body's fix is unsafe
        print(torch.get_device_module().get_device_properties(i))


def cudart_per_device():
    for i in range(torch.cuda.device_count()):  # expect: cuda-device-count:report -- the body calls the CUDA runtime
        torch.cuda.cudart().cudaProfilerStart()


def moves(x):
    # Every CUDA reference in the body has a safe fix: the count is ported with it.
    for i in range(torch.accelerator.device_count()):  # expect: cuda-device-count:safe
        x = x.to(torch.accelerator.current_accelerator().type + ":" + str(i))
    return x


def counted(batches):
    # The count anywhere in what the loop reads decides how often the body runs.
    for b in batches[: torch.accelerator.device_count()]:  # expect: cuda-device-count:unsafe -- sliced by the count: a bound too
        print(torch.get_device_module().get_device_properties(b))


def extension_per_device(x):
    # No rule matches the extension's call: region parsing keeps it for the review all the same.
    for i in range(torch.cuda.device_count()):  # expect: cuda-device-count:report -- a CUDA extension
        y = 1
        fused_adam_cuda.step(x, i)
        z = 2


def through_a_name():
    # ColossalAI's inference example: the count kept in a name bounds the loop all the same.
    gpu_memory = []
    num_gpus = torch.accelerator.device_count()  # expect: cuda-device-count:unsafe -- the loop's body, through the name
    for gpu_id in range(num_gpus):
        gpu_memory.append(torch.get_device_module().get_device_properties(gpu_id).total_memory)
    return gpu_memory


def through_a_bound(max_gpus):
    num_gpus = torch.accelerator.device_count() if max_gpus is None else min(max_gpus, torch.accelerator.device_count())  # expect: cuda-device-count:unsafe -- a value of the conditional
    for gpu_id in range(num_gpus):
        print(torch.get_device_module().get_device_properties(gpu_id))


def through_a_name_portable(x):
    n = torch.accelerator.device_count()  # expect: cuda-device-count:safe -- a body whose fixes are safe
    for i in range(n):
        x = x.to(torch.accelerator.current_accelerator().type + ":" + str(i))
    return x
