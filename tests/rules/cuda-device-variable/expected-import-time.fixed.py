import dataclasses

import torch

# Module and class level: the value is computed at import time. On a CPU-only build the string
# "cuda" imported fine and current_accelerator().type raises; the engine makes these fixes
# unsafe (docs/safety.md).

DEFAULTS = {"device": torch.accelerator.current_accelerator().type, "epochs": 3}  # expect: cuda-device-variable:unsafe -- import time: unsafe on a CPU-only build
DEVICE: str = torch.accelerator.current_accelerator().type  # expect: cuda-device-variable:unsafe -- import time


@dataclasses.dataclass
class Config:
    device: str = torch.accelerator.current_accelerator().type  # expect: cuda-device-variable:unsafe -- a dataclass field default: definition time
    lr: float = 0.1


class Model:
    default_device = torch.accelerator.current_accelerator().type  # expect: cuda-device-variable:unsafe -- a class attribute: definition time


if __name__ == "__main__":
    device = torch.accelerator.current_accelerator().type  # expect: cuda-device-variable:safe -- the script's body, not import time
