"""A device in a dict literal that an assertion compares is the expected value of data the
test parsed (lm-evaluation-harness's CLI test: `--model_args device=cuda` parses to `{"device":
"cuda"}`): ported, it no longer equals what the same input parses to, on any host but CUDA."""
import argparse


class TestRunCommand:
    def test_run_command_model_args(self):
        parser = argparse.ArgumentParser()
        parser.add_argument("--model_args", nargs="+")
        args = parser.parse_args(["--model_args", "pretrained=gpt2", "device=cuda"])
        assert args.model_args == {"pretrained": "gpt2", "device": "cuda"}  # expect: cuda-device-variable:report
        assert {"device": "cuda"} != args.model_args  # expect: cuda-device-variable:report


# Negatives: a dict that is not compared.
def settings():
    return {"device": "cuda"}  # expect: cuda-device-variable
