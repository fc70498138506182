#!/usr/bin/env python3
"""Runs whole programs before and after `devport fix`, on this machine's accelerator and with the
accelerator hidden (a CPU-only host), and requires a safe fix to change nothing that ran: the
runtime proof, program by program, of what tests/rules checks line by line.

    run_programs.py DEVPORT PROGRAMS_DIR             fix, run and compare (CTest)
    run_programs.py --prepare DEVPORT PROGRAMS_DIR OUT
                                                     only write OUT/<program>/{original,safe,
                                                     unsafe}.py (no torch needed)
    run_programs.py --compare OUT                    run what --prepare wrote (a machine with
                                                     torch and an accelerator but no devport)

`--target-torch X.Y` (default 2.9) picks the release the fixes are written for; `--verbose`
prints what every version printed.

Each program in PROGRAMS_DIR is self-contained and prints what it computed. Its first line says
which of its versions devport must change: `# runtime: safe unsafe`, `# runtime: unsafe` or
`# runtime: none` (code that must stay CUDA), so that a rule that stops fixing fails here too.

Per environment (the accelerator as found; then CUDA_VISIBLE_DEVICES="" when the accelerator
is CUDA), where the original exits 0:
  - the safe version must exit 0 and print the same;
  - on the accelerator, the unsafe version must too (an unsafe fix may differ only off it:
    those differences are listed, not counted).
Exit 0 when nothing failed, 1 on a failure, 77 when torch is not importable (CTest: skipped).
"""
import concurrent.futures
import glob
import os
import shutil
import subprocess
import sys
import tempfile

VERSIONS = ("original", "safe", "unsafe")
# current_accelerator() is device('cuda') on a CUDA build without a GPU: ask is_available().
PROBE = ("import torch\n"
         "a = torch.accelerator.current_accelerator() if hasattr(torch, 'accelerator') else None\n"
         "print(a.type if a is not None and torch.accelerator.is_available() else 'cpu')\n")


def expectations(path):
    with open(path, encoding="utf-8") as f:
        first = f.readline()
    if not first.startswith("# runtime:"):
        raise SystemExit(f"{path}:1: the first line must be `# runtime: safe unsafe|unsafe|none`")
    words = set(first.split(":", 1)[1].split())
    if not words <= {"safe", "unsafe", "none"} or ("none" in words and len(words) > 1):
        raise SystemExit(f"{path}:1: unknown expectation {first.strip()!r}")
    return words - {"none"}


def prepare(devport, programs, out, target):
    """Writes the three versions of each program; returns the problems found."""
    problems = []
    for src in sorted(glob.glob(os.path.join(programs, "*.py"))):
        name = os.path.splitext(os.path.basename(src))[0]
        want = expectations(src)
        d = os.path.join(out, name)
        os.makedirs(d, exist_ok=True)
        with open(src, encoding="utf-8") as f:
            text = f.read()
        for version in VERSIONS:
            path = os.path.join(d, version + ".py")
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            if version == "original":
                continue
            args = [devport, "fix", "--target-torch", target, path]
            if version == "unsafe":
                args.insert(2, "--unsafe-fixes")
            r = subprocess.run(args, capture_output=True, text=True)
            if r.returncode not in (0, 1):
                problems.append(f"{name}: devport fix exited {r.returncode}: {r.stderr.strip()}")
            with open(path, encoding="utf-8") as f:
                changed = f.read() != text
            if changed != (version in want):
                problems.append(f"{name}: the {version} version is "
                                f"{'changed' if changed else 'unchanged'}, the program's first "
                                f"line expects {'a change' if version in want else 'none'}")
    return problems


def run(path, env):
    try:
        r = subprocess.run([sys.executable, os.path.basename(path)], cwd=os.path.dirname(path),
                           env=env, capture_output=True, text=True, timeout=300)
        return r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired:
        return 124, "", "timed out after 300 s"


def environments():
    """(label, env) pairs: the accelerator as found, and hidden where it is CUDA."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    found = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True,
                           text=True).stdout.strip() or "cpu"
    envs = [(found, env)]
    if found == "cuda":
        hidden = dict(env, CUDA_VISIBLE_DEVICES="")
        if subprocess.run([sys.executable, "-c", PROBE], env=hidden, capture_output=True,
                          text=True).stdout.strip() == "cpu":
            envs.append(("cpu-only", hidden))
    return envs


def compare(out, verbose):
    envs = environments()
    programs = sorted(d for d in glob.glob(os.path.join(out, "*")) if os.path.isdir(d))
    jobs = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 1)) as pool:
        for d in programs:
            for label, env in envs:
                for version in VERSIONS:
                    path = os.path.join(d, version + ".py")
                    jobs[(os.path.basename(d), label, version)] = pool.submit(run, path, env)
    results = {k: f.result() for k, f in jobs.items()}
    if verbose:
        for (name, label, version), (rc, stdout, stderr) in sorted(results.items()):
            tail = stderr.strip().splitlines()[-1:] if rc else []
            print(f"{name} [{label}] {version}: exit {rc}: {stdout.strip()!r}", *tail)
    failed = compared = 0
    notes = []
    for d in programs:
        name = os.path.basename(d)
        for i, (label, _) in enumerate(envs):
            rc0, out0, err0 = results[(name, label, "original")]
            if rc0 != 0:
                notes.append(f"{name} [{label}]: the original exits {rc0} (not compared): "
                             f"{err0.strip().splitlines()[-1] if err0.strip() else ''}")
                continue
            for version in ("safe", "unsafe"):
                rc, out1, err = results[(name, label, version)]
                if rc == 0 and out1 == out0:
                    compared += 1
                    continue
                what = (f"exits {rc}: {err.strip().splitlines()[-1] if err.strip() else ''}"
                        if rc != 0 else f"prints {out1!r} where the original printed {out0!r}")
                if version == "unsafe" and i > 0:
                    notes.append(f"{name} [{label}]: the unsafe version {what} (allowed off the "
                                 "accelerator)")
                    continue
                failed += 1
                print(f"FAIL {name} [{label}]: the {version} version {what}")
    for n in notes:
        print("note:", n)
    labels = ", ".join(label for label, _ in envs)
    print(f"{len(programs)} programs on {labels}: {compared} fixed versions ran as the "
          f"original did, {failed} failed")
    return 1 if failed else 0


def has_torch():
    r = subprocess.run([sys.executable, "-c", "import torch"], capture_output=True, text=True)
    if r.returncode != 0:
        last = r.stderr.strip().splitlines()[-1] if r.stderr.strip() else ""
        print(f"skipped: torch is not importable here ({last})")
    return r.returncode == 0


def main(argv):
    verbose = "--verbose" in argv
    argv = [a for a in argv if a != "--verbose"]
    target = "2.9"
    if "--target-torch" in argv:
        i = argv.index("--target-torch")
        target = argv[i + 1]
        del argv[i:i + 2]
    if len(argv) == 5 and argv[1] == "--prepare":
        problems = prepare(argv[2], argv[3], argv[4], target)
        for p in problems:
            print("FAIL", p)
        return 1 if problems else 0
    if len(argv) == 3 and argv[1] == "--compare":
        return compare(argv[2], verbose) if has_torch() else 77
    if len(argv) == 3:
        out = tempfile.mkdtemp(prefix="devport-programs-")
        try:
            problems = prepare(argv[1], argv[2], out, target)
            for p in problems:
                print("FAIL", p)
            if not has_torch():
                return 1 if problems else 77
            return max(compare(out, verbose), 1 if problems else 0)
        finally:
            shutil.rmtree(out, ignore_errors=True)
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
