# devport-test: rules=all
"""A device in a dict literal that an assertion compares is the expected value of data the
test parsed (lm-evaluation-harness's CLI test: `--model_args device=cuda` parses to `{"device":
"cuda"}`): ported, it no longer equals what the same input parses to, on any host but CUDA."""
import torch
import argparse


class TestRunCommand:
    def test_run_command_model_args(self):
        parser = argparse.ArgumentParser()
        parser.add_argument("--model_args", nargs="+")
        args = parser.parse_args(["--model_args", "pretrained=gpt2", "device=cuda"])
        assert args.model_args == {"pretrained": "gpt2", "device": "cuda"}  # expect: cuda-device-variable:report
        assert {"device": "cuda"} != args.model_args  # expect: cuda-device-variable:report


class MegatronRewardModel:
    # verl: the attribute is a tag that a check compares with "cuda" and "npu", which stays:
    # ported alone, an XPU host skips the offload that it ran, a CPU-only build raises.
    def __init__(self, module, param_offload):
        self.module = module
        self.device = "cuda"  # expect: cuda-device-variable:report
        if param_offload:
            self.offload_params_to_cpu()

    def offload_params_to_cpu(self):
        if self.device in ["cuda", "npu"]:
            for p in self.module.parameters():
                p.data = p.data.to("cpu", non_blocking=True)
            self.device = "cpu"


# Negatives: a dict that is not compared.
def settings():
    return {"device": torch.accelerator.current_accelerator().type}  # expect: cuda-device-variable
