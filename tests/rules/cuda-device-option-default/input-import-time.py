import dataclasses

import click


# Decorator arguments and class-level fields: evaluated when the module is imported. The
# YAML fix is unsafe already; the engine's import-time check adds its own note when it lands
# (regenerate the goldens then).
@click.command()
@click.option("--device", default="cuda")  # expect: cuda-device-option-default:unsafe -- a decorator argument: import time
def main(device):
    pass


@dataclasses.dataclass
class Options:
    device: str = dataclasses.field(default="cuda")  # expect: cuda-device-option-default:unsafe -- a dataclass field: definition time
