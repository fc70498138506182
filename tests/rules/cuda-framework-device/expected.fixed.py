import lightning as L
import pytorch_lightning as pl
from lightning.fabric import Fabric
from transformers import AutoModelForCausalLM, pipeline


def train(model, data):
    trainer = pl.Trainer(accelerator="gpu", devices=1)  # expect: cuda-framework-device:report -- "gpu" is CUDA or MPS in Lightning: no XPU
    trainer = L.Trainer(  # a multi-line call
        max_epochs=3,
        accelerator='cuda',  # expect: cuda-framework-device:report
    )
    fabric = Fabric(accelerator="cuda", devices=2)  # expect: cuda-framework-device:report
    return trainer, fabric


def load(name):
    model = AutoModelForCausalLM.from_pretrained(name, device_map="cuda")  # expect: cuda-framework-device:report -- read by transformers: what it accepts depends on its release
    pipe = pipeline("text-generation", model=name, device_map="cuda:0")  # expect: cuda-framework-device:report
    whole = AutoModelForCausalLM.from_pretrained(name, device_map={"": "cuda"})  # expect: cuda-framework-device:report -- the whole model on one device (diffusers, peft)
    return model, pipe, whole


# Negatives.
trainer = pl.Trainer(accelerator="auto", devices=1)
trainer = pl.Trainer(accelerator="cpu")
model = AutoModelForCausalLM.from_pretrained("m", device_map="auto")
model = AutoModelForCausalLM.from_pretrained("m", device_map={"": "cpu"})
model = AutoModelForCausalLM.from_pretrained("m", device_map={"": 0})  # an index: the current accelerator's
strategy = DeepSpeedStrategy(accelerator="gpu")  # not a Trainer
opts = dict(accelerator="gpu")
# pl.Trainer(accelerator="gpu")
"""Trainer(accelerator="gpu")"""
