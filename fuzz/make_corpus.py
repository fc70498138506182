#!/usr/bin/env python3
"""make_corpus.py: the seed corpora of the fuzz targets, from the project's own files.

    fuzz/make_corpus.py OUTDIR [--source DIR]

writes OUTDIR/<target>/ for each fuzz target (fuzz/CMakeLists.txt), replacing what is there:

    python-engine  tests/rules/*/input*.py, and mutants of them: recombined lines of the
                   fixtures, truncations, lines re-indented, brackets dropped, CRLF / BOM /
                   lone-CR variants, doctest-wrapped lines (seeded: the same corpus each run)
    cpp-lexical    tests/rules/*/input*.{cpp,cu,h}, and the same kinds of mutants
    yaml-loaders   rules/**/*.yaml, data/backends.yaml, the ```yaml blocks of docs/*.md, and
                   a few .devport.yaml files written here
    lsp            tests/lsp/*.test (Delimited framing, as they are, and each message as its
                   own input) and the same messages with Content-Length headers

Nothing binary is committed: run this before fuzzing (fuzz/run.sh does).
"""
import argparse
import os
import random
import re
import shutil
import sys

SEED = 12


def read(path):
    with open(path, "rb") as f:
        return f.read()


def fixtures(root, exts):
    out = []
    rules = os.path.join(root, "tests", "rules")
    for d in sorted(os.listdir(rules)):
        full = os.path.join(rules, d)
        if not os.path.isdir(full):
            continue
        for f in sorted(os.listdir(full)):
            if f.startswith("input") and f.endswith(exts):
                out.append(read(os.path.join(full, f)))
    return out


def mutants(texts, rng, count):
    """Mutated snippets built from the lines of texts."""
    lines = [l for t in texts for l in t.splitlines(keepends=True)]
    out = []
    for i in range(count):
        kind = i % 8
        base = rng.choice(texts)
        if kind == 0:  # recombined lines
            out.append(b"".join(rng.choice(lines) for _ in range(rng.randint(3, 30))))
        elif kind == 1:  # truncated
            out.append(base[: rng.randint(0, len(base))])
        elif kind == 2:  # one line re-indented
            ls = base.splitlines(keepends=True)
            if ls:
                j = rng.randrange(len(ls))
                ls[j] = b" " * rng.choice([1, 2, 4, 8]) + ls[j]
            out.append(b"".join(ls))
        elif kind == 3:  # a bracket or quote dropped
            spots = [m.start() for m in re.finditer(rb"[()\[\]{}'\"]", base)]
            if spots:
                j = rng.choice(spots)
                base = base[:j] + base[j + 1 :]
            out.append(base)
        elif kind == 4:  # CRLF line endings, sometimes a BOM
            t = base.replace(b"\n", b"\r\n")
            out.append((b"\xef\xbb\xbf" + t) if rng.random() < 0.5 else t)
        elif kind == 5:  # lone CR line endings
            out.append(base.replace(b"\n", b"\r"))
        elif kind == 6:  # the lines inside a function, a class or a doctest
            body = b"".join(b"    " + l for l in base.splitlines(keepends=True))
            wrap = rng.choice([b"def f(x):\n", b"class C:\n", b"if True:\n"])
            if rng.random() < 0.3:
                body = b"".join(b"    >>> " + l for l in base.splitlines(keepends=True))
                wrap = b'def f():\n    """Example.\n\n'
                body += b'    """\n'
            out.append(wrap + body)
        else:  # two fixtures spliced at a random line
            a = base.splitlines(keepends=True)
            b = rng.choice(texts).splitlines(keepends=True)
            out.append(b"".join(a[: rng.randint(0, len(a))] + b[rng.randint(0, len(b)) :]))
    return out


CONFIGS = [
    b"",
    b"# only a comment\n",
    b"select: [cuda-method, cuda-synchronize]\nignore: [cpp]\ntarget-torch: '2.4'\n",
    b"target-torch: 2.6\ndevice-expression: self.device\ndocstrings: fix\n"
    b"exclude: ['third_party/**', '*.pyi']\n",
    b"per-file-ignores:\n  'tests/**': [cuda-method]\n  '*.cu': [all]\n"
    b"cuda-role-files: ['kernels/**']\nrules: [extra_rules/]\n",
    b"cuda-comments: ['#ignore-cuda', 'CUDA only']\n",
    b"select: {a: {a: [1, 2, {b: c}]}}\n",
    b"anchors: &a [x, *a]\n",
]


def lsp_messages(text):
    """The JSON messages of a tests/lsp/*.test file."""
    msgs = []
    for chunk in re.split(rb"^---[ \t]*$", text, flags=re.M):
        body = b"\n".join(l for l in chunk.splitlines() if not l.lstrip().startswith(b"#"))
        if body.strip():
            msgs.append(body.strip())
    return msgs


def standard(msgs):
    return b"".join(b"Content-Length: %d\r\n\r\n%s" % (len(m), m) for m in msgs)


def write_all(outdir, name, blobs):
    d = os.path.join(outdir, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    seen = set()
    for i, b in enumerate(blobs):
        if b in seen:
            continue
        seen.add(b)
        with open(os.path.join(d, "seed-%04d" % i), "wb") as f:
            f.write(b)
    return len(seen)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("outdir")
    ap.add_argument("--source", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    args = ap.parse_args()
    root = args.source
    rng = random.Random(SEED)

    py = fixtures(root, (".py",))
    cpp = fixtures(root, (".cpp", ".cu", ".h"))

    yaml = []
    for dirpath, _, files in sorted(os.walk(os.path.join(root, "rules"))):
        yaml += [read(os.path.join(dirpath, f)) for f in sorted(files) if f.endswith(".yaml")]
    yaml.append(read(os.path.join(root, "data", "backends.yaml")))
    docs = os.path.join(root, "docs")
    for f in sorted(os.listdir(docs)):
        if f.endswith(".md"):
            yaml += [m.encode() for m in re.findall(r"```yaml\n(.*?)```", read(os.path.join(docs, f)).decode(), re.S)]
    yaml += CONFIGS

    lsp = []
    lspdir = os.path.join(root, "tests", "lsp")
    for f in sorted(os.listdir(lspdir)):
        if f.endswith(".test"):
            t = read(os.path.join(lspdir, f))
            msgs = lsp_messages(t)
            lsp += [t, standard(msgs)] + msgs

    counts = {
        "python-engine": write_all(args.outdir, "python-engine", py + mutants(py, rng, 600)),
        "cpp-lexical": write_all(args.outdir, "cpp-lexical", cpp + mutants(cpp, rng, 200)),
        "yaml-loaders": write_all(args.outdir, "yaml-loaders", yaml),
        "lsp": write_all(args.outdir, "lsp", lsp),
    }
    for name, n in counts.items():
        print("%s: %d seeds" % (name, n))
    return 0


if __name__ == "__main__":
    sys.exit(main())
