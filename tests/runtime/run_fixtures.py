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
numbers, strings: ==; streams and events: same device). Without an accelerator (CUDA hidden,
a CPU-only host) only safe fixes run (expected*.diag.txt says which are unsafe), and must run
where the original ran; what they compute there is listed, not compared. Exit 0 when nothing
failed, 1 on a mismatch, 77 when torch is not importable (CTest reports a skip).
"""
import ast
import functools
import glob
import os
import re
import sys
import traceback

MARK = re.compile(r"#\s*expect:\s*([a-z0-9, -]+)")


def context(torch):
    # current_accelerator() is device('cuda') on a CUDA build without a GPU: ask is_available().
    acc = torch.accelerator.current_accelerator() if hasattr(torch, "accelerator") else None
    dev = acc.type if acc is not None and torch.accelerator.is_available() else "cpu"
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
    if isinstance(a, (list, tuple)):
        return (type(a) is type(b) and len(a) == len(b)
                and all(same(x, y, torch) for x, y in zip(a, b)))
    if isinstance(a, dict):
        return (isinstance(b, dict) and a.keys() == b.keys()
                and all(same(a[k], b[k], torch) for k in a))
    if isinstance(a, torch.nn.Module):
        return type(a) is type(b) and all(
            same(p, q, torch) for p, q in zip(a.parameters(), b.parameters()))
    if isinstance(a, functools.partial):  # torch.amp.custom_fwd(device_type=...) and the like
        return (isinstance(b, functools.partial) and a.func is b.func
                and same(a.args, b.args, torch) and same(a.keywords, b.keywords, torch))
    if isinstance(a, torch.Generator):
        return (isinstance(b, torch.Generator) and a.device == b.device
                and a.initial_seed() == b.initial_seed())
    kind_a, kind_b = type(a).__name__, type(b).__name__
    if kind_a in ("Stream", "Event") or kind_b in ("Stream", "Event"):
        # torch.cuda.Stream vs torch.Stream: the same kind on the same device. An event knows its
        # device once recorded (on the current stream, as the code's first record() would).
        if kind_a != kind_b:
            return False
        if kind_a == "Event":
            a.record()
            b.record()
        return getattr(a, "device", None) == getattr(b, "device", None)
    if a is b:
        return True
    if (isinstance(a, type(b)) or isinstance(b, type(a))) and hasattr(a, "__dict__") \
            and hasattr(b, "__dict__") and vars(a) and not isinstance(a, type):
        # Objects of one class family (torch.cuda.amp.GradScaler and torch.amp.GradScaler):
        # the same state.
        return same(vars(a), vars(b), torch)
    return bool(a == b)


def reset(torch):
    """Undoes what one fixture line may leave for the next: a default device or dtype, a process
    group."""
    if hasattr(torch, "set_default_device"):
        torch.set_default_device(None)
    torch.set_default_dtype(torch.float32)
    try:
        import torch.distributed as dist
        if dist.is_available() and dist.is_initialized():
            dist.destroy_process_group()
    except Exception:  # noqa: BLE001 - a broken group is gone either way
        pass


def marked(path):
    """(rule, line text, line number) of each marked line."""
    out = []
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        m = MARK.search(line)
        if m:
            out.append((m.group(1).strip(), line.rstrip("\n"), number))
    return out


def unsafe_lines(diag, input_name):
    """The input's lines where expected*.diag.txt shows an unsafe fix (`= fix (unsafe):`)."""
    lines, current = set(), None
    if not os.path.exists(diag):
        return lines
    head = re.compile(re.escape(input_name) + r":(\d+):\d+: ")
    for line in open(diag, encoding="utf-8"):
        m = head.match(line)
        if m:
            current = int(m.group(1))
        elif current is not None and line.lstrip().startswith("= fix (unsafe)"):
            lines.add(current)
    return lines


def main():
    root = sys.argv[1]
    try:
        import torch
    except Exception as e:
        print(f"skipped: torch is not importable here ({e})")
        return 77
    base = set(context(torch))
    # With an accelerator every fix must compute what the original did. Without one (a CPU-only
    # host, or CUDA hidden) a safe fix must still run where the original ran, and computes what
    # that host has (torch.cpu for torch.cuda): differences are listed, not counted; an unsafe
    # fix may raise there (that is why it is unsafe) and is not run.
    accelerated = context(torch)["dev"] != "cpu"
    compared = skipped = failed = 0
    notes = []
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
        unsafe = unsafe_lines(os.path.join(d, f"expected{case}.diag.txt"), name)
        for (rule, b, number), (_, a, _) in zip(before, after):
            b, a = b.strip(), a.strip()
            if a == b:
                continue  # no fix on this line (a flag, or reported only)
            if not accelerated and number in unsafe:
                skipped += 1
                continue
            try:
                ast.parse(b)
                ast.parse(a)
            except SyntaxError:
                skipped += 1  # part of a multi-line statement
                continue
            reset(torch)
            ns1, ns2 = context(torch), context(torch)
            try:
                exec(compile(b, "before", "exec"), ns1)
            except Exception:
                skipped += 1  # the fixture line needs context we do not build
                continue
            finally:
                reset(torch)
            try:
                exec(compile(a, "after", "exec"), ns2)
            except Exception:
                failed += 1
                print(f"FAIL {rule}: the original runs but the fix raises\n  {b}\n  {a}")
                traceback.print_exc(limit=1)
                continue
            finally:
                reset(torch)
            for k, v in ns1.items():
                if k.startswith("__") or k in base:
                    continue
                try:
                    equal = k in ns2 and same(v, ns2[k], torch)
                except Exception as e:  # noqa: BLE001 - a comparison that raises is a difference
                    equal = False
                    print(f"  comparing {k} raised {type(e).__name__}: {e}")
                if not equal and not accelerated:
                    notes.append(f"{rule}: {k} differs without an accelerator\n  {b}\n  {a}")
                elif not equal:
                    failed += 1
                    print(f"FAIL {rule}: {k} differs\n  {b}\n  {a}")
                    break
            else:
                compared += 1
    for n in notes:
        print("note:", n)
    where = context(torch)["dev"] if accelerated else "no accelerator (safe fixes only)"
    print(f"torch {torch.__version__} on {where}: {compared} fixed lines compared, {skipped} "
          f"skipped, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
