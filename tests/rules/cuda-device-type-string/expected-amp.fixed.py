"""`torch.autocast("cuda")` and `torch.amp.GradScaler("cuda")` disable themselves with a warning
on a CPU-only build; `current_accelerator().type` raises there (docs/safety.md)."""
import torch


def step(model, x, scaler=None):
    with torch.autocast(torch.accelerator.current_accelerator().type, dtype=torch.float16):  # expect: cuda-device-type-string:unsafe -- disables itself on a CPU-only build
        y = model(x)
    with torch.amp.autocast(device_type=torch.accelerator.current_accelerator().type):  # expect: cuda-device-type-string:unsafe
        z = model(x)
    scaler = scaler or torch.amp.GradScaler(torch.accelerator.current_accelerator().type)  # expect: cuda-device-type-string:unsafe
    return y, z, scaler


def guarded(model, x):
    if torch.cuda.is_available():
        with torch.autocast(torch.accelerator.current_accelerator().type):  # expect: cuda-device-type-string:safe -- runs only with an accelerator
            return model(x)
    return model(x)



@torch.testing._internal.common_utils.skipIfNoCuda
def test_skipped(model, x):
    with torch.autocast(torch.accelerator.current_accelerator().type):  # expect: cuda-device-type-string:safe -- skipped without CUDA
        return model(x)


def test_runs_everywhere(model, x):
    with torch.autocast(torch.accelerator.current_accelerator().type):  # expect: cuda-device-type-string:unsafe -- a CPU-only CI runs it
        return model(x)


# torch.amp.custom_fwd only stores its device type (kornia's lightglue, at module level): the
# original ran at import on a CPU-only build, the fix's current_accelerator() does not.
AMP_CUSTOM_FWD_F32 = torch.amp.custom_fwd(cast_inputs=torch.float32, device_type=torch.accelerator.current_accelerator().type)  # expect: cuda-device-type-string:unsafe -- module level runs at import
AMP_CUSTOM_BWD = torch.amp.custom_bwd(device_type=torch.accelerator.current_accelerator().type)  # expect: cuda-device-type-string:unsafe


def make_fwd():
    return torch.amp.custom_fwd(device_type=torch.accelerator.current_accelerator().type)  # expect: cuda-device-type-string:safe -- runs when called


@withCUDA
def test_linear_autocast(device):
    # PyG's @withCUDA adds a CUDA case beside the CPU one, skipping nothing: a CPU-only CI runs it.
    with torch.amp.autocast(torch.accelerator.current_accelerator().type):  # expect: cuda-device-type-string:unsafe -- a CPU-only CI runs it
        return torch.zeros(1, device=device)


@pytest.mark.parametrize("device", ["cpu", "cuda"])
def test_parametrized_autocast(device):
    with torch.amp.autocast(torch.accelerator.current_accelerator().type):  # expect: cuda-device-type-string:unsafe -- the cpu case runs it
        return torch.zeros(1, device=device)


def final_validation(pipeline, prompts, accelerator):
    # HF accelerate's `accelerator` object: is_main_process holds in a CPU-only run too (diffusers'
    # training scripts). It says nothing of a device.
    images = []
    if accelerator.is_main_process:
        with torch.autocast(torch.accelerator.current_accelerator().type):  # expect: cuda-device-type-string:unsafe -- the condition asks for no device
            images.append(pipeline(prompts))
    if accelerator.sync_gradients and not accelerator.is_local_main_process:
        with torch.autocast(torch.accelerator.current_accelerator().type):  # expect: cuda-device-type-string:unsafe -- nor does this one
            images.append(pipeline(prompts))
    if torch.accelerator.current_accelerator() is not None:
        with torch.autocast(torch.accelerator.current_accelerator().type):  # expect: cuda-device-type-string:safe -- this one does
            images.append(pipeline(prompts))
    if use_accelerator:
        with torch.autocast(torch.accelerator.current_accelerator().type):  # expect: cuda-device-type-string:safe -- a flag named for one
            images.append(pipeline(prompts))
    return images


def synthesize(model, half):
    # tortoise-tts: the condition names MPS, but holds on a CPU-only build, where the autocast
    # ran (disabled) and current_accelerator() is None.
    if not torch.backends.mps.is_available():
        with torch.autocast(device_type=torch.accelerator.current_accelerator().type, enabled=half):  # expect: cuda-device-type-string:unsafe -- not MPS holds without an accelerator
            return model()
    if torch.backends.mps.is_available() or has_cpu:
        with torch.autocast(torch.accelerator.current_accelerator().type):  # expect: cuda-device-type-string:unsafe -- either side holds without one
            return model()
    if torch.backends.mps.is_available() and half:
        with torch.autocast(torch.accelerator.current_accelerator().type):  # expect: cuda-device-type-string:safe -- MPS is there
            return model()
    if not torch.cuda.is_available():
        return model()
    else:
        with torch.autocast(torch.accelerator.current_accelerator().type):  # expect: cuda-device-type-string:safe -- the else of no CUDA
            return model()


def synthesize_else(model):
    if torch.cuda.is_available():
        return model()
    else:
        with torch.autocast(torch.accelerator.current_accelerator().type):  # expect: cuda-device-type-string:unsafe -- the else of CUDA runs without one
            return model()
