# devport-test: rules=all
"""A condition that names a CUDA match through a variable (speechbrain's SaveableGenerator)."""
import re

import torch


class SaveableGenerator:
    def __init__(self, generators=None):
        self.generators = generators or {"default": torch.default_generator}

    def load(self, save_dict):
        for key, state in save_dict.items():
            match = re.match(r"cuda:(\d+)", key)
            if match:
                if not torch.cuda.is_available():  # expect: cuda-is-available:report -- CUDA state, no CUDA here: skip it
                    continue
            self.generators[key].set_state(state)

    def direct(self, key):
        if re.match(r"cuda:(\d+)", key):
            if not torch.cuda.is_available():  # expect: cuda-is-available:report
                return None
        return key
