#!/usr/bin/env python3
"""data/backends.yaml against the installed torch: for every name it lists, each backend module
the table says has it must have it (hasattr works without the hardware), and each module it says
lacks it must lack it, when the installed release is the table's. For a newer release, only the
names the table says exist are checked (a module may gain functions; losing one that another
module also has is a finding, since a port may name it through `get_device_module()`), and the
names that appeared or went are listed, so that the table can be regenerated.

    check_backends.py TABLE          (data/backends.yaml)

Exit 0: the table holds; 1: it does not; 77: torch is not importable here (CTest: skipped).
"""
import importlib
import re
import sys


def load_table(path):
    """The table as {name: set(modules)}, its release and modules (the file's fixed shape)."""
    names, release, modules = {}, None, []
    for line in open(path, encoding="utf-8"):
        line = line.rstrip("\n")
        if m := re.match(r'^release: "([0-9.]+)"$', line):
            release = m.group(1)
        elif m := re.match(r"^modules: \[(.*)\]$", line):
            modules = [x.strip() for x in m.group(1).split(",")]
        elif m := re.match(r"^  ([A-Za-z_][A-Za-z0-9_]*): \[(.*)\]$", line):
            names[m.group(1)] = {x.strip() for x in m.group(2).split(",") if x.strip()}
    return names, release, modules


def main(argv):
    try:
        import torch
    except Exception as e:  # noqa: BLE001 - any import failure means no torch here
        print(f"torch is not importable ({e}): skipped")
        return 77
    names, release, modules = load_table(argv[1])
    installed = ".".join(torch.__version__.split(".")[:2])
    same = installed == release
    bad, gained, lost = [], [], []
    for m in modules:
        mod = importlib.import_module(f"torch.{m}")
        for name, have in sorted(names.items()):
            exists = hasattr(mod, name)
            if m in have and not exists:
                if not same and have == {m}:
                    # Only this module had it: no fix can name it through another backend's
                    # module, so a newer release dropping it (torch.cuda.MemPoolContext, gone by
                    # 2.11) breaks no port.
                    lost.append(f"torch.{m}.{name}")
                else:
                    bad.append(f"torch.{m}.{name}: the table says it exists; torch {torch.__version__} lacks it")
            elif m not in have and exists:
                if same:
                    bad.append(f"torch.{m}.{name}: exists, the table says it does not")
                else:
                    gained.append(f"torch.{m}.{name}")
    for b in bad:
        print("FAIL:", b)
    if gained:
        print(f"torch {torch.__version__} has {len(gained)} names the {release} table lacks "
              "(regenerate with tools/gen_backend_table.py):", ", ".join(gained))
    if lost:
        print(f"torch {torch.__version__} dropped {len(lost)} names that only one module had in "
              f"the {release} table (no port targets them):", ", ".join(lost))
    print(f"{len(names) * len(modules) - len(bad)} passed, {len(bad)} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
