# devport-test: rules=all
"""Guards analysed with the code they guard (docs/safety.md)."""
import unittest

import pytest
import torch


def clean_block(x):
    # Every CUDA reference in the block has a safe fix: the guard is safe.
    if torch.accelerator.is_available():  # expect: cuda-is-available:safe
        x = x.to(torch.accelerator.current_accelerator().type)
        torch.accelerator.synchronize()
    return x


def flags_in_block(model, args):
    # The user's option in the condition and cuDNN settings in the block run anywhere.
    if torch.accelerator.is_available() and args.cuda:  # expect: cuda-is-available:safe
        torch.backends.cudnn.deterministic = True
        model = model.to(device=torch.accelerator.current_accelerator())
    return model


def runtime_call_in_block():
    # torch.cuda.cudart().cudaProfilerStart() has no rewrite: on MPS the widened guard would run it.
    if torch.cuda.is_available():  # expect: cuda-is-available:report -- the block calls torch.cuda.cudart().cudaProfilerStart()
        torch.cuda.cudart().cudaProfilerStart()


def extension_in_block(x):
    if torch.cuda.is_available():  # expect: cuda-is-available:report -- a CUDA extension
        import fused_adam_cuda

        fused_adam_cuda.step(x)


def literal_left_in_block(x):
    if torch.cuda.is_available():  # expect: cuda-is-available:report -- "cuda:0" is kept by a suppression
        x = x.to("cuda:0")  # devport: ignore[cuda-device-index-string]


def unsafe_fix_in_block():
    # get_device_name is missing on MPS: the guard is only as safe as that fix.
    if torch.accelerator.is_available():  # expect: cuda-is-available:unsafe -- MPS has no get_device_name
        print(torch.get_device_module().get_device_name())


def early_exit(self):
    # A negated guard that returns guards the rest of the block.
    if not torch.cuda.is_available():  # expect: cuda-is-available:report -- torch.cuda.memory._dump_snapshot below
        self.skipTest("needs CUDA")
    torch.cuda.memory._dump_snapshot("snapshot.pickle")


def early_exit_commented(self):
    # A comment after the exit is the block's last child in the tree, not its last statement.
    if not torch.cuda.is_available():  # expect: cuda-is-available:report -- torch.cuda.memory._dump_snapshot below
        self.skipTest("needs CUDA")  # no GPU here
    torch.cuda.memory._dump_snapshot("snapshot.pickle")


def early_exit_comment_below(x):
    if not torch.cuda.is_available():  # expect: cuda-is-available:report -- torch.cuda.memory._dump_snapshot below
        return x
        # nothing to do without a GPU
    torch.cuda.memory._dump_snapshot("snapshot.pickle")
    return x


def early_exit_clean(x):
    if not torch.accelerator.is_available():  # expect: cuda-is-available:safe
        return x
    return x.to(device=torch.accelerator.current_accelerator())


def nested(x):
    # The inner guard keeps its CUDA check, so the outer one does too.
    if torch.cuda.is_available():  # expect: cuda-is-available:report -- the inner guard stays CUDA
        if torch.cuda.is_available():  # expect: cuda-is-available:report -- torch.cuda.cudart().cudaProfilerStart()
            torch.cuda.cudart().cudaProfilerStart()


class TestThing(unittest.TestCase):
    @unittest.skipIf(not torch.cuda.is_available(), "no CUDA")  # expect: cuda-is-available:report -- the test body uses nvtx
    def test_nvtx(self):
        torch.cuda.nvtx.range_push("x")

    @unittest.skipIf(not torch.accelerator.is_available(), "no CUDA")  # expect: cuda-is-available:safe
    def test_portable(self):
        torch.zeros(2, device=torch.accelerator.current_accelerator().type)


@pytest.mark.skipif(not torch.accelerator.is_available(), reason="no CUDA")  # expect: cuda-is-available:safe
def test_portable_too():
    torch.ones(1).to(device=torch.accelerator.current_accelerator())


def conditional(x):
    device = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"  # expect: cuda-is-available:safe
    return x.to(device)


# Negative cases: a ladder that already selects per backend is kept whole (no
# finding, its CUDA branch included); --show-kept lists it.
def ladder():
    if torch.cuda.is_available():
        device = torch.device("cuda")
    elif torch.backends.mps.is_available():
        device = torch.device("mps")
    else:
        device = torch.device("cpu")
    return device


def ladder_in_else():
    if torch.cuda.is_available():
        torch.cuda.empty_cache()
    else:
        if torch.xpu.is_available():
            torch.xpu.empty_cache()


def ladder_in_elif(rank, system):
    # text-generation-inference: the XPU arm is an `if` inside an `elif` on the platform.
    if torch.cuda.is_available():
        device = torch.device(f"cuda:{rank}")
    elif system == "ipex":
        if hasattr(torch, "xpu") and torch.xpu.is_available():
            device = torch.device(f"xpu:{rank}")
        else:
            device = torch.device("cpu")
    else:
        device = torch.device("cpu")
    return device


def ladder_expression():
    return "cuda" if torch.cuda.is_available() else "mps" if torch.backends.mps.is_available() else "cpu"


def packages(check_requirements):
    # A string that names a CUDA-only package is CUDA-only code; a message is not.
    cuda = torch.cuda.is_available()  # expect: cuda-is-available:report -- it picks onnxruntime-gpu
    check_requirements("onnxruntime-gpu" if cuda else "onnxruntime")


def message_only():
    if torch.accelerator.is_available():  # expect: cuda-is-available:safe -- a message that says CUDA runs anywhere
        print("Using CUDA")
        warnings.warn("GPU found")


def double_precision(x):
    if torch.cuda.is_available():  # expect: cuda-is-available:report -- MPS has no float64
        y = x.to(device=torch.accelerator.current_accelerator().type, dtype=torch.float64)
        return y


def float8_guarded(w):
    # MPS has no float8 either (sd-scripts' --fp8 weights).
    if torch.cuda.is_available():  # expect: cuda-is-available:report -- MPS has no float8
        w = w.to(device=torch.accelerator.current_accelerator().type, dtype=torch.float8_e4m3fn)
    return w


class TestKernels(unittest.TestCase):
    @unittest.skipIf(not torch.cuda.is_available(), "CUDA not available")  # expect: cuda-is-available:report -- the test is about CUDA
    def test_roi_align_cuda(self):
        self._check(device="cuda")


def build(cfg):
    # The CPU fallback protects a "cuda" default set elsewhere (a config file): on MPS it would
    # no longer apply.
    if not torch.accelerator.is_available():  # expect: cuda-is-available:unsafe -- a CPU fallback
        cfg.MODEL.DEVICE = "cpu"
    return cfg


class TestOps(unittest.TestCase):
    # A skip reason is a message, not CUDA-only code.
    @unittest.skipIf(not torch.accelerator.is_available(), "needs a CUDA GPU")  # expect: cuda-is-available:safe
    def test_ones(self):
        torch.ones(2, device=torch.accelerator.current_accelerator().type)

    @unittest.skipIf(not torch.cuda.is_available(), "no GPU")  # expect: cuda-is-available:report -- named for the GPU
    def test_sum_on_gpu(self):
        torch.ones(2, device=torch.accelerator.current_accelerator().type).sum()


@unittest.skipIf(not torch.accelerator.is_available(), "no CUDA")  # expect: cuda-is-available:safe -- the inner skip's reason is a message
class TestLayer(unittest.TestCase):
    @unittest.skipIf(TORCH_VERSION < (2, 0), "CUDA kernels need torch 2")
    def test_zeros(self):
        torch.zeros(1, device=torch.accelerator.current_accelerator().type)


class TestHalf(unittest.TestCase):
    # `from torch.cuda.amp import autocast` imports on any build; its uses are fixed, and the
    # import goes with them.
    @unittest.skipIf(not torch.accelerator.is_available(), "CUDA not available")  # expect: cuda-is-available:unsafe -- autocast's fix is unsafe on a CPU-only build
    def test_half(self):

        x = torch.rand(2).to(device=torch.accelerator.current_accelerator())
        with torch.amp.autocast(torch.accelerator.current_accelerator().type):
            y = x.half()
        self.assertEqual(y.dtype, torch.float16)


def asserted(x):
    # What runs after an assert runs only where it held.
    assert torch.cuda.is_available()  # expect: cuda-is-available:report -- the code after it uses the CUDA runtime API
    torch.cuda.cudart().cudaProfilerStart()
    return x


def asserted_clean(x, device):
    if device:
        assert torch.accelerator.is_available(), "no CUDA"  # expect: cuda-is-available:safe -- the rest is portable
    return x.to(torch.accelerator.current_accelerator().type)


def availability_queries(x):
    # is_nvml_available() answers on any build: it is not CUDA-only code.
    if torch.accelerator.is_available():  # expect: cuda-is-available:safe
        monitor = utils.is_nvml_available()
        return x.to(torch.accelerator.current_accelerator().type), monitor


def requested_but_missing(torch_device):
    # "CUDA was asked for and is missing": rewritten alone, the check lets a "cuda" request
    # through on a Mac, which then fails in .to("cuda") where the function returned before.
    if torch_device == "cuda" and not torch.cuda.is_available():  # expect: cuda-is-available:report -- it depends on the "cuda" comparison, which stays
        return None
    return torch.ones(2).to(torch_device)


def requested_flag(args):
    use_gpu = args.device == "cuda" and torch.cuda.is_available()  # expect: cuda-is-available:report -- the same, as a flag
    return use_gpu


def requested_in_expression(device):
    return device if (torch.cuda.is_available() or device != "cuda") else "cpu"  # expect: cuda-is-available:report -- the same, in a conditional expression


def ported_comparison(x):
    # The comparison is fixed too: the check and it are ported together.
    if torch.accelerator.is_available() and x.to(torch.accelerator.current_accelerator().type).is_contiguous():  # expect: cuda-is-available:safe
        return x


def ladder_of_requests(device):
    # Each arm checks the request and its backend: a per-backend ladder, kept whole.
    if "cuda" in device and torch.cuda.is_available():
        torch.cuda.empty_cache()
    elif "npu" in device and torch.npu.is_available():
        torch.npu.empty_cache()


# An allow-list: the check names the backends the code supports, beside CUDA's. Ported, it
# would let every accelerator through, MTIA and out-of-tree ones too, which the list leaves out.
def allow_list():
    if not (torch.cuda.is_available() or torch.xpu.is_available() or torch.mps.is_available()):  # expect: cuda-is-available:report -- the list names torch.xpu.is_available()
        raise RuntimeError("needs a GPU")
    return True


def allow_list_flag():
    return torch.cuda.is_available() or torch.backends.mps.is_available()  # expect: cuda-is-available:report -- the list names torch.backends.mps


def allow_list_helper(is_torch_npu_available):
    return torch.cuda.is_available() or is_torch_npu_available()  # expect: cuda-is-available:report -- a helper named for NPU


def none_of_the_list(model):
    if not torch.cuda.is_available() and not torch.xpu.is_available():  # expect: cuda-is-available:report -- "none of them", the same list
        return model
    return model.half()


def not_a_list(args, x):
    # The other side is the user's option, not another backend: ported as usual.
    if torch.accelerator.is_available() or args.force_accelerator:  # expect: cuda-is-available:safe
        x = x.to(torch.accelerator.current_accelerator().type)
    return x


def ladder_with_a_list(x):
    # The list heads a per-backend ladder: kept whole, as ladders are.
    if torch.cuda.is_available() or torch.xpu.is_available():
        return x.to("cuda")
    elif torch.backends.mps.is_available():
        return x.to("mps")
    return x


def allow_list_by_count():
    return torch.cuda.device_count() > 0 or torch.xpu.device_count() > 0  # expect: cuda-device-count:report -- a count in the same list


def unless_rocm(x, TEST_WITH_ROCM):
    # An exclusion, not a list: CUDA unless ROCm. Reviewed as any guard.
    if torch.accelerator.is_available() and not TEST_WITH_ROCM:  # expect: cuda-is-available:safe
        x = x.to(torch.accelerator.current_accelerator().type)
    return x


def device_alternatives(x):
    # The check is a condition of the CUDA alternative, not one of a list.
    if x.device.type == "mps" or (torch.accelerator.is_available() and x.is_contiguous()):  # expect: cuda-is-available:safe
        return x
    return None


def memory_report():
    # An f-string's `{...}` is code: ported alone, the check would run torch.cuda's memory query
    # on a Mac (and print zeros there).
    if torch.accelerator.is_available():  # expect: cuda-is-available:unsafe -- the query's own fix is unsafe
        print(f"Peak: {torch.accelerator.max_memory_allocated() / 1024**3:.2f} GB")


def memory_message():
    # A message that names CUDA is no CUDA code; an f-string's plain text neither.
    if torch.accelerator.is_available():  # expect: cuda-is-available:safe
        print(f"CUDA is here, torch {torch.__version__}")


def fallback_named(face_alignment):
    # A comment in the fallback that names another backend: the author sends it there on
    # purpose (peft's boft_controlnet/eval.py: a library without XPU support). Kept, as a ladder.
    if torch.cuda.is_available():
        device = "cuda:0"
    else:
        # TODO: xpu support in face-alignment is not released yet
        device = "cpu"
    return face_alignment.FaceAlignment(device=device)


def fallback_commented(model):
    if torch.accelerator.is_available():  # expect: cuda-is-available:safe
        device = torch.accelerator.current_accelerator().type + ":0"  # expect: cuda-device-index-string
    else:
        # no accelerator: the slow path
        device = "cpu"
    return model.to(device)


def capability_assert(is_sm_at_least_89, is_MI300):
    # The block asserts CUDA (and ROCm) hardware, by SM and Instinct names (torchao's quant_api):
    # ported, a Mac would fail the assertion where it skipped it. Kept (keep-cuda-feature-guard).
    if torch.cuda.is_available():
        assert is_sm_at_least_89() or is_MI300(), "needs SM 8.9 or MI300"
    return True


def capability_table(SM90OrLater, x):
    # Kept as well: SM90OrLater is a CUDA capability.
    if torch.cuda.is_available():
        x = x.half() if SM90OrLater else x
    return x


def not_a_capability(smooth, mid):
    if torch.accelerator.is_available():  # expect: cuda-is-available:safe
        smooth = smooth + mid
    return smooth


def device_class(DeviceGPU, DeviceCPU):
    # A class named for the GPU beside per-backend siblings (composer's DeviceGPU, DeviceMPS):
    # CUDA's half; ported, a Mac would get the CUDA device class where it got the CPU one.
    return DeviceGPU() if torch.cuda.is_available() else DeviceCPU()  # expect: cuda-is-available:report -- DeviceGPU()


def gpu_helper(x, helpers):
    if torch.cuda.is_available():  # expect: cuda-is-available:report -- move_to_gpu, defined elsewhere
        x = helpers.move_to_gpu(x)
    return x


def gpu_count_variable(num_gpus, x):
    # A variable named for GPUs is no CUDA code; only a call is.
    if torch.accelerator.is_available():  # expect: cuda-is-available:safe
        num_gpus = num_gpus + 1
    return num_gpus


def pinned(x):
    # Upstream keeps pinning CUDA-only (RULES.md, 5): test_torch's test_pin_memory. The first
    # statement is no region of its own: region parsing keeps it for the review all the same.
    if torch.cuda.is_available():  # expect: cuda-is-available:report -- x.pin_memory()
        y = torch.randn(3).pin_memory()
        x = x + y
    return x


def fallback_comment_last(model):
    # A comment after the fallback's last statement is not read (a region parse's tree ends the
    # block at that statement): ported as usual.
    if torch.accelerator.is_available():  # expect: cuda-is-available:safe
        device = torch.accelerator.current_accelerator().type + ":0"  # expect: cuda-device-index-variable
    else:
        device = "cpu"
        # TODO: xpu support in this library is not released yet
    return model.to(device)


def tensorflow_package(MACOS, check_requirements):
    # A per-platform choice (yolov5's export.py): the Mac has its branch, so a Mac must not take
    # the CUDA one (it would install `tensorflow` for `tensorflow-macos`). Kept, as a ladder.
    check_requirements(f"tensorflow{'' if torch.cuda.is_available() else '-macos' if MACOS else '-cpu'}")


def platform_ladder(sys, x):
    # The same with sys.platform: kept.
    if torch.cuda.is_available():
        x = x.to("cuda")
    elif sys.platform == "darwin":
        x = x.to("mps")
    return x


# A skip in `marks=` guards its pytest.param's values (kornia's parameter tests): the CUDA
# device stays (its own fix is unsafe at definition time), so a Mac would run the test with it.
@pytest.mark.parametrize(
    "device",
    [
        torch.device("cpu"),
        pytest.param(
            torch.accelerator.current_accelerator(),
            marks=pytest.mark.skipif(not torch.accelerator.is_available(), reason="no CUDA"),  # expect: cuda-is-available:unsafe -- the param's value is CUDA's until its unsafe fix
        ),
        pytest.param("cpu", marks=pytest.mark.skipif(not torch.accelerator.is_available(), reason="x")),  # expect: cuda-is-available:safe -- its value is no CUDA
    ],
)
def test_param_marks(device):
    assert torch.zeros(1).to(device).numel() == 1


# A skip decorator guards the other decorators of its test too (sentence-transformers'
# cross-encoder test): "cuda" in the parametrize list stays.
@pytest.mark.skipif(not torch.cuda.is_available(), reason="no CUDA")  # expect: cuda-is-available:report -- "cuda" in the parametrize list
@pytest.mark.parametrize("device", ["cpu", "cuda"])
def test_device_assignment(device):
    assert torch.zeros(1, device=device).numel() == 1


@pytest.mark.parametrize("dtype", [torch.float32])
@pytest.mark.skipif(not torch.accelerator.is_available(), reason="no CUDA")  # expect: cuda-is-available:safe
def test_other_decorators_portable(dtype):
    assert torch.zeros(1, dtype=dtype).numel() == 1


def cache_device(args):
    # The check picks a value devport does not see over "cpu" (open_clip's scripts, whose
    # --cache-device defaults to "cuda"): ported, a Mac would get that value where it got "cpu".
    cache = torch.device(args.cache_device if torch.accelerator.is_available() else "cpu")  # expect: cuda-is-available:unsafe -- picks args.cache_device over "cpu"
    main = torch.device(args.device if torch.accelerator.is_available() or args.device == "cpu" else "cpu")  # expect: cuda-is-available:unsafe
    # What the check picks is ported with it, or is no device: safe.
    rank = torch.accelerator.current_accelerator().type + ":" + str(args.rank) if torch.accelerator.is_available() else "cpu"  # expect: cuda-is-available:safe
    workers = args.workers if torch.accelerator.is_available() else 0  # expect: cuda-is-available:safe
    return cache, main, rank, workers


def amp_train(model, data):
    # What follows an assert is guarded; a name imported from torch.cuda.amp there, used in
    # another statement, is CUDA's (detectron2's AMPTrainer): its fix is unsafe, so is this one.
    assert torch.accelerator.is_available(), "CUDA is required for AMP training!"  # expect: cuda-is-available:unsafe -- autocast is torch.cuda.amp's

    with torch.amp.autocast(torch.accelerator.current_accelerator().type):
        return model(data)


# Another skip beside it only skips more: not code that runs (torchao's FSDP tests).
@skip_if_lt_x_gpu(2)
@pytest.mark.skipif(not torch.accelerator.is_available(), reason="no CUDA")  # expect: cuda-is-available:safe
def test_two_skips():
    assert torch.zeros(2).sum() == 0


def log_every(iterable, logger):
    # Two guards of one check decide one thing (the MetricLogger of torchvision's references,
    # DINOv2, DETR): the first adds "{memory}" to the format, the second fills it, and its memory
    # query's fix is unsafe. Ported alone, the first would raise KeyError on a Mac.
    log_list = ["[{0}]"]
    if torch.accelerator.is_available():  # expect: cuda-is-available:unsafe -- the same check at line 475 keeps CUDA
        log_list += ["max mem: {memory:.0f}"]
    log_msg = " ".join(log_list)
    for i, obj in enumerate(iterable):
        yield obj
        if torch.accelerator.is_available():  # expect: cuda-is-available:unsafe -- max_memory_allocated's fix is unsafe
            logger.info(log_msg.format(i, memory=torch.accelerator.max_memory_allocated()))
        else:
            logger.info(log_msg.format(i))


def log_once(logger):
    # Negative: in another function, the same check guards code of its own.
    if torch.accelerator.is_available():  # expect: cuda-is-available:safe
        logger.info("on an accelerator")


def train_device(cfg):
    # A negated check picks "cpu" when it holds: the CUDA branch is the other one (torchrl's
    # multi-agent scripts). Its "cuda:0" is a setting evaluated only where there is an
    # accelerator, as with `"cuda:0" if torch.cuda.is_available() else "cpu"`: both ported.
    cfg.train.device = "cpu" if not torch.accelerator.is_available() else torch.accelerator.current_accelerator().type + ":0"  # expect: cuda-is-available:safe -- the other branch is CUDA's, and ported too
    return cfg


def nvtx_range(func):
    # An early exit where CUDA is missing guards the other branches of its `if` too (PyG's nvtx
    # profiler): the CUDA profiler call stays, so a Mac must not get past the check.
    if not torch.cuda.is_available():  # expect: cuda-is-available:report -- cudaProfilerStart stays
        return func()
    else:
        torch.cuda.cudart().cudaProfilerStart()
    return func()


def negated_portable(x):
    # Negative: the other branch is ported with the check.
    if not torch.accelerator.is_available():  # expect: cuda-is-available:safe
        return x
    else:
        return x.to(torch.accelerator.current_accelerator().type)  # expect: cuda-device-string


def gpu_memory(subprocess):
    # nvidia-smi is CUDA's (PyG's GraphGym picks a GPU by its memory): ported, a Mac would run it.
    if torch.cuda.is_available():  # expect: cuda-is-available:report -- nvidia-smi
        out = subprocess.check_output(["nvidia-smi", "-L"])
        return out
    return None


class Recipe:
    def __init__(self, fuser=None):
        # thunder's recipes pick nvFuser, which runs on CUDA only, where CUDA is there.
        if fuser is None:
            if torch.cuda.is_available():  # expect: cuda-is-available:report -- nvfuser
                fuser = "nvfuser"
            else:
                fuser = "torch.compile"
        self.fuser = fuser


def op_database(DecorateInfo, pytest):
    # The other operand of `or` runs where the check lets it (thunder's op database, at
    # import): the capability query stays CUDA's, so a Mac must not reach it.
    return DecorateInfo(
        pytest.mark.skip,
        active_if=(not torch.cuda.is_available() or torch.cuda.get_device_capability() < (9, 0)),  # expect: cuda-is-available:report -- get_device_capability stays
    )


def flag_operands(args):
    # Negative: a user's option beside the check is the check's own condition.
    use_cuda = torch.accelerator.is_available() and args.cuda  # expect: cuda-is-available:safe
    return use_cuda


# Two conditional expressions on one check pick values that go together (composer's profiler
# demo): the device keeps CUDA ("gpu" is the trainer's own name), so the precision must too, or
# a Mac gets device="cpu" with precision="amp_fp16".
trainer = Trainer(
    device="gpu" if torch.cuda.is_available() else "cpu",  # expect: cuda-is-available:report -- "gpu" stays
    precision="amp_fp16" if torch.accelerator.is_available() else "fp32",  # expect: cuda-is-available:unsafe -- its twin keeps CUDA
)


def pick(model):
    kind = "gpu" if torch.cuda.is_available() else "cpu"  # expect: cuda-is-available:report -- "gpu" stays
    return Trainer(model, kind, precision="amp" if torch.accelerator.is_available() else "fp32")  # expect: cuda-is-available:unsafe -- the same check in the function keeps CUDA


class Handler:
    # mmpretrain's TorchServe handler: the attribute one check picks is what the next statement's
    # check (split over two lines) falls back to, with a CUDA-only `gpu_id` on its CUDA side.
    def initialize(self, properties):
        self.map_location = torch.accelerator.current_accelerator().type if torch.accelerator.is_available() else "cpu"  # expect: cuda-is-available:unsafe -- the next check keeps CUDA
        self.device = torch.device(self.map_location + ":" + str(properties.get("gpu_id")) if torch.cuda.  # expect: cuda-is-available:report -- gpu_id
                                   is_available() else self.map_location)


def separate_statements():
    # Negative: each of two functions has its own check.
    return 16 if torch.accelerator.is_available() else 4  # expect: cuda-is-available:safe


def other_function():
    return "gpu" if torch.cuda.is_available() else "cpu"  # expect: cuda-is-available:report -- "gpu" stays


def default_picked(d="gpu" if torch.cuda.is_available() else "cpu"):  # expect: cuda-is-available:report -- "gpu" stays
    # A conditional expression in a parameter's default is in no statement of the function.
    if torch.accelerator.is_available():  # expect: cuda-is-available:safe
        torch.accelerator.synchronize()  # expect: cuda-synchronize:safe
    return d


@unittest.skipIf(not torch.cuda.is_available(), "cuda should be available")  # expect: cuda-is-available:report -- gloo takes CPU and CUDA tensors only
class TestSeparateDDP(unittest.TestCase):
    # mmengine's DDP wrapper tests: ported, a Mac runs this with MPS parameters, and DDP's first
    # collective on gloo raises.
    def test_train_step(self):
        dist.init_process_group(backend="gloo", rank=0, world_size=1)
        model = torch.nn.Linear(2, 2).to(device=torch.accelerator.current_accelerator())  # expect: cuda-method:safe
        ddp = DDP(model)
        ddp(torch.randn(1, 2).to(device=torch.accelerator.current_accelerator())).sum().backward()  # expect: cuda-method:safe


def cpu_group():
    # Negative: gloo outside what the check guards.
    if torch.accelerator.is_available():  # expect: cuda-is-available:safe
        torch.accelerator.synchronize()  # expect: cuda-synchronize:safe
    dist.init_process_group(backend="gloo")


@unittest.skipIf(not torch.cuda.is_available(), "test requires a GPU")  # expect: cuda-is-available:report -- named for CUDA
class TestTranslationGPU(unittest.TestCase):
    # fairseq's GPU tests: a class named for the GPU, a word of a camel-cased name.
    def test_fp16(self):
        torch.ones(2).to(device=torch.accelerator.current_accelerator()).half().sum()  # expect: cuda-method


def fallback_device(model, x):
    # DeepSpeedExamples' ImageNet script: the CPU fallback of a CUDA default, as a torch.device.
    device = torch.accelerator.current_accelerator()
    if not torch.accelerator.is_available():  # expect: cuda-is-available:unsafe -- it guards a CPU fallback
        device = torch.device("cpu")
    return model.to(device)(x.to(device))
