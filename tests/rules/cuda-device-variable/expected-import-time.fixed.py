import dataclasses

import torch

# Module and class level: the value is computed at import time. On a CPU-only build the string
# "cuda" imported fine and current_accelerator().type raises; the engine's import-time check
# will make these fixes unsafe (regenerate the goldens when it lands).

DEFAULTS = {"device": torch.accelerator.current_accelerator().type, "epochs": 3}  # expect: cuda-device-variable -- import time: unsafe on a CPU-only build once the check lands
DEVICE: str = torch.accelerator.current_accelerator().type  # expect: cuda-device-variable -- import time


@dataclasses.dataclass
class Config:
    device: str = torch.accelerator.current_accelerator().type  # expect: cuda-device-variable -- a dataclass field default: definition time
    lr: float = 0.1


class Model:
    default_device = torch.accelerator.current_accelerator().type  # expect: cuda-device-variable -- a class attribute: definition time


if __name__ == "__main__":
    device = torch.accelerator.current_accelerator().type  # expect: cuda-device-variable:safe -- the script's body, not import time
