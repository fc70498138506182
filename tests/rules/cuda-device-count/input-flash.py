# devport-test: rules=all
"""Guarded code that asks for FlashAttention (OLMo's HF tests: `attn_implementation=
"flash_attention_2"` under a CUDA skip), or imports its package: flash-attn has no build for
macOS, so a Mac fails where the check skipped it."""
import pytest
import torch


@pytest.mark.skipif(torch.cuda.device_count() < 1, reason="Requires CUDA devices")  # expect: cuda-device-count:report -- flash_attention_2 on a Mac
def test_flash_attention_2(model_path):
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(model_path, attn_implementation="flash_attention_2")
    assert model is not None


def fused(q):
    if torch.cuda.device_count() > 0:  # expect: cuda-device-count:report -- flash_attn imported
        from flash_attn import flash_attn_func

        return flash_attn_func(q, q, q)
    return q


# Negatives: the import's failure is caught; SDPA.
def maybe_fused(q):
    if torch.cuda.device_count() > 0:  # expect: cuda-device-count:safe
        try:
            from flash_attn import flash_attn_func
        except ImportError:
            return q
        return flash_attn_func(q, q, q)
    return q


@pytest.mark.skipif(torch.cuda.device_count() < 1, reason="Requires CUDA devices")  # expect: cuda-device-count:safe
def test_sdpa(model_path):
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(model_path, attn_implementation="sdpa")
    assert model is not None
