import dataclasses

# Module and class level: computed at import time; the engine's import-time check will make
# these fixes unsafe (regenerate the goldens when it lands).

DEVICE = "cuda:0"  # expect: cuda-device-index-variable:unsafe -- import time: unsafe on a CPU-only build
PLACEMENT = {"device": "cuda:1"}  # expect: cuda-device-index-variable:unsafe -- import time


@dataclasses.dataclass
class Config:
    device: str = "cuda:0"  # expect: cuda-device-index-variable:unsafe -- a dataclass field default
