# devport-test: rules=all
"""A flag assigned from a CUDA availability check is decided by its uses (docs/safety.md)."""
import torch


def train(args, model):
    # Every use chooses a device or moves data: ported, with a neutral name suggested.
    use_cuda = not args.no_cuda and torch.cuda.is_available()  # expect: cuda-is-available:safe
    device = torch.device("cuda" if use_cuda else "cpu")
    kwargs = {"num_workers": 1, "pin_memory": True} if use_cuda else {}
    if use_cuda:
        model.cuda()
    return device, kwargs


def profile():
    has_cuda = torch.cuda.is_available()  # expect: cuda-is-available:report -- it guards torch.cuda.nvtx
    if has_cuda:
        torch.cuda.nvtx.range_push("step")


def mixed(x):
    # One use chooses a device, the other guards CUDA-only code: for a human.
    cuda_ok = torch.cuda.is_available()  # expect: cuda-is-available:report -- it also guards torch.cuda.cudart().cudaProfilerStart()
    y = x.to("cuda") if cuda_ok else x
    if cuda_ok:
        torch.cuda.cudart().cudaProfilerStart()
    return y


def passed_on(run):
    # A use that is not a condition guards nothing here.
    available = torch.cuda.is_available()  # expect: cuda-is-available:safe
    return run(available)


class Trainer:
    def __init__(self):
        self.use_gpu = torch.cuda.is_available()  # expect: cuda-is-available:safe

    def step(self, x):
        if self.use_gpu:
            x = x.cuda()
        return x

    def sync(self):
        if self.use_gpu:
            torch.cuda.synchronize()


class Profiler:
    def __init__(self):
        self.cuda = torch.cuda.is_available()  # expect: cuda-is-available:report -- guards torch.cuda.memory._record_memory_history

    def start(self):
        if self.cuda:
            torch.cuda.memory._record_memory_history()


# Kept by keep-cuda-named-flag: an upper-case constant, imported by modules devport cannot see.
TEST_CUDA = torch.cuda.is_available()


# An upper-case module constant that the keep rule does not catch: other modules may import it.
ACCELERATED = torch.cuda.is_available()  # expect: cuda-is-available:unsafe -- uses in other modules are not checked


def merge(run_merge, MergeOptions, config):
    # A keyword named for CUDA: the callee (mergekit) reads it as "use CUDA"; ported, a Mac
    # would pass cuda=True and the merge would call .cuda().
    run_merge(config, options=MergeOptions(device="auto", cuda=torch.cuda.is_available()))  # expect: cuda-is-available:report -- passed as cuda=
    return MergeOptions(use_cuda=not args.cpu and torch.cuda.is_available())  # expect: cuda-is-available:report -- passed as use_cuda=


def keyword_not_named(Trainer):
    return Trainer(use_accelerator=torch.cuda.is_available())  # expect: cuda-is-available:safe


def kmeans(faiss, d, k):
    # gpu= means CUDA to faiss (and gpus= to Lightning 1.x): a Mac would ask for a CUDA GPU.
    return faiss.Kmeans(d, k, gpu=True if torch.cuda.is_available() else False)  # expect: cuda-is-available:report -- passed as gpu=


def old_trainer(Trainer):
    return Trainer(gpus=torch.cuda.device_count())  # expect: cuda-device-count:report -- passed as gpus=


def loader(DataLoader, data):
    # Pinned memory is kept CUDA-only upstream (RULES.md); ported, a Mac would ask to pin.
    return DataLoader(data, pin_memory=torch.cuda.is_available())  # expect: cuda-is-available:report -- passed as pin_memory=


def plugin(HybridParallelPlugin, Model):
    # ColossalAI's benchmark: a fused kernel (apex's fused LayerNorm, flash attention) asked for
    # where CUDA is; ported, a Mac asks for apex's CUDA kernel.
    p = HybridParallelPlugin(tp_size=1, enable_fused_normalization=torch.cuda.is_available())  # expect: cuda-is-available:report -- passed as enable_fused_normalization=
    m = Model(use_flash_attention=torch.cuda.is_available())  # expect: cuda-is-available:report -- passed as use_flash_attention=
    return p, m


def through_name(AsyncPredictor, cfg):
    # The value reaches a keyword named for the GPU through a name (detectron2's demo): ported,
    # a Mac would start a worker on "cuda:0".
    num_gpu = torch.cuda.device_count()  # expect: cuda-device-count:report -- reaches num_gpus=
    return AsyncPredictor(cfg, num_gpus=num_gpu)


def through_loop(m, helper, example_inputs):
    # Through a loop over a name (the QAT fusion of PyTorch and torchao): the callee moves the
    # example inputs with .cuda() when it is true.
    options = [True, False] if torch.cuda.is_available() else [False]  # expect: cuda-is-available:report -- reaches gpu=
    for flag in options:
        m = helper(
            m,
            example_inputs,
            gpu=flag,
        )
    return m


def not_passed_so(run, helper):
    # Negative: passed positionally, as a keyword not named for CUDA, or a loop variable passed
    # so; a keyword named for CUDA that takes another value.
    available = torch.cuda.is_available()  # expect: cuda-is-available:safe
    run(available, verbose=available, use_cuda=False)
    choices = [True] if torch.cuda.is_available() else [False]  # expect: cuda-is-available:safe
    for choice in choices:
        helper(enabled=choice)
    return helper(cuda=not_a_check)


def passed_before(run):
    # Negative: the keyword takes the name's value before the check is assigned.
    flag = False
    run(use_cuda=flag)
    flag = torch.cuda.is_available()  # expect: cuda-is-available:safe
    return flag


def ray_options():
    # A dict key named for the GPU is such a keyword once spread into a call (torchrl's Ray
    # collector: ray.remote(**options)); ported, a Mac asks Ray for a GPU it has none of and hangs.
    return {"num_cpus": 1, "num_gpus": 0.2 if torch.cuda.is_available() else None}  # expect: cuda-is-available:report -- passed as num_gpus


def other_key():
    return {"accelerated": torch.cuda.is_available()}  # expect: cuda-is-available:safe


def lightning_trainer(pl):
    # Lightning's accelerator= takes a name from its own list ("cuda", "cpu", "mps", "gpu", ...)
    # and rejects "xpu" (lightly's fine-tuning tutorial): ported, an XPU host failed to start.
    device = "cuda" if torch.cuda.is_available() else "cpu"  # expect: cuda-is-available:report -- reaches accelerator=
    return pl.Trainer(max_epochs=5, devices=1, accelerator=device)


# xtuner's device helpers: a module-level flag that heads a per-backend ladder is kept with it.
is_cuda_available = torch.cuda.is_available()  # kept with the ladder: no finding
is_npu_available = is_torch_npu_available()


def get_device_name():
    if is_cuda_available:
        device = "cuda"
    elif is_npu_available:
        device = "npu"
    else:
        device = "cpu"
    return device
