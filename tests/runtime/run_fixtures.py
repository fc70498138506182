#!/usr/bin/env python3
"""Runs the original and the fixed form of every rule fixture's marked lines under the installed
PyTorch and compares what they compute: the runtime proof that a fix keeps behaviour on the
machine's accelerator (run it on a CUDA machine).

    run_fixtures.py FIXTURES_DIR

Each `# expect: <rule>` line of tests/rules/<rule>/input*.py is paired with the line that carries
the same marker in expected*.fixed.py. A pair is compared when the original line is a complete
statement that runs in the prepared context (the fixture lines use names such as `rank`, `x`,
`model`; lines whose names the context lacks are skipped). The fixed line must then run too, and
the variables both bind must be equal (tensors: same device, dtype and values; devices, dtypes,
numbers, strings: ==; streams and events: same device). Exit 0 when nothing failed, 1 on a
mismatch, 77 when torch is not importable (CTest reports a skip).
"""
import ast
import glob
import os
import re
import sys
import traceback

MARK = re.compile(r"#\s*expect:\s*([a-z0-9, -]+)")


def context(torch):
    acc = torch.accelerator.current_accelerator() if hasattr(torch, "accelerator") else None
    dev = acc.type if acc is not None else "cpu"
    ns = {"torch": torch, "rank": 0, "local_rank": 0, "i": 0, "idx": 0, "dev": dev, "device": dev,
          "device_type": dev, "use_gpu": True, "use_amp": True, "seed": 0, "n": 1, "r": 0}
    try:
        import torch.distributed as dist
        ns["dist"] = dist
    except Exception:
        pass
    ns["x"] = torch.ones(2, 2)
    ns["y"] = torch.ones(2, 2)
    ns["t"] = torch.ones(2)
    ns["model"] = torch.nn.Linear(2, 2)
    ns["Net"] = lambda: torch.nn.Linear(2, 2)
    return ns


def same(a, b, torch):
    if isinstance(a, torch.Tensor):
        return (isinstance(b, torch.Tensor) and a.device == b.device and a.dtype == b.dtype
                and a.shape == b.shape and bool((a.cpu() == b.cpu()).all()))
    if isinstance(a, torch.nn.Module):
        return type(a) is type(b) and all(
            same(p, q, torch) for p, q in zip(a.parameters(), b.parameters()))
    kind_a, kind_b = type(a).__name__, type(b).__name__
    if kind_a in ("Stream", "Event") or kind_b in ("Stream", "Event"):
        # torch.cuda.Stream vs torch.Stream: the same kind on the same device.
        return kind_a == kind_b and getattr(a, "device", None) == getattr(b, "device", None)
    return a == b


def marked(path):
    out = []
    for line in open(path, encoding="utf-8"):
        m = MARK.search(line)
        if m:
            out.append((m.group(1).strip(), line.rstrip("\n")))
    return out


def main():
    root = sys.argv[1]
    try:
        import torch
    except Exception as e:
        print(f"skipped: torch is not importable here ({e})")
        return 77
    base = set(context(torch))
    compared = skipped = failed = 0
    for inp in sorted(glob.glob(os.path.join(root, "*", "input*.py"))):
        d, name = os.path.split(inp)
        case = name[len("input"):-len(".py")]
        fixed = os.path.join(d, f"expected{case}.fixed.py")
        if not os.path.exists(fixed):
            continue
        before, after = marked(inp), marked(fixed)
        if len(before) != len(after):
            skipped += len(before)
            continue
        for (rule, b), (_, a) in zip(before, after):
            b, a = b.strip(), a.strip()
            if a == b:
                continue  # no fix on this line (a flag, or reported only)
            try:
                ast.parse(b)
                ast.parse(a)
            except SyntaxError:
                skipped += 1  # part of a multi-line statement
                continue
            ns1, ns2 = context(torch), context(torch)
            try:
                exec(compile(b, "before", "exec"), ns1)
            except Exception:
                skipped += 1  # the fixture line needs context we do not build
                continue
            try:
                exec(compile(a, "after", "exec"), ns2)
            except Exception:
                failed += 1
                print(f"FAIL {rule}: the original runs but the fix raises\n  {b}\n  {a}")
                traceback.print_exc(limit=1)
                continue
            for k, v in ns1.items():
                if k.startswith("__") or k in base:
                    continue
                if k not in ns2 or not same(v, ns2[k], torch):
                    failed += 1
                    print(f"FAIL {rule}: {k} differs\n  {b}\n  {a}")
                    break
            else:
                compared += 1
    print(f"torch {torch.__version__}: {compared} fixed lines compared, {skipped} skipped, "
          f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
