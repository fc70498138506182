#!/usr/bin/env python3
"""roundtrip_verify.py NAME WORK: the checks of roundtrip.sh over WORK/{orig,fixed,fixed2}."""
import json
import os
import re
import sys
import warnings

HUNK = re.compile(rb"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def unquote(name):
    """A file name of a ---/+++ line as devport writes it (git's quoting)."""
    name = name.rstrip(b"\n")
    if name.endswith(b"\t"):
        name = name[:-1]
    if name.startswith(b'"'):
        return name[1:-1].decode("unicode_escape").encode("latin-1")
    return name


def parse_diff(data):
    """{path: [(old_start, old_lines, new_lines)]}, lines as bytes with their endings."""
    files, cur, hunk = {}, None, None
    lines = data.split(b"\n")
    i = 0
    while i < len(lines):
        l = lines[i]
        if l.startswith(b"--- ") and i + 1 < len(lines) and lines[i + 1].startswith(b"+++ "):
            cur = files.setdefault(os.path.normpath(unquote(lines[i + 1][4:]).decode()), [])
            i += 2
            continue
        m = HUNK.match(l)
        if m:
            hunk = (int(m.group(1)), [], [])
            cur.append(hunk)
        elif hunk is not None and l[:1] in (b" ", b"-", b"+"):
            text = l[1:] + b"\n"
            if i + 1 < len(lines) and lines[i + 1].startswith(b"\\ No newline"):
                text = text[:-1]
            if l[:1] in (b" ", b"-"):
                hunk[1].append(text)
            if l[:1] in (b" ", b"+"):
                hunk[2].append(text)
        i += 1
    return files


def apply(orig, hunks):
    """orig with the hunks applied; None if a hunk's old side does not match."""
    old = orig.splitlines(keepends=True)
    out, pos = [], 0
    for start, o, n in hunks:
        at = start - 1 if o else start
        if old[at : at + len(o)] != o or at < pos:
            return None
        out += old[pos:at] + n
        pos = at + len(o)
    return b"".join(out + old[pos:])


def compiles(data, path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            compile(data, path, "exec", dont_inherit=True)
            return True
        except (SyntaxError, ValueError):
            return False


def read(path):
    with open(path, "rb") as f:
        return f.read()


def main():
    name, work = sys.argv[1], sys.argv[2]
    orig_root = os.path.join(work, "orig")
    diff = parse_diff(read(os.path.join(work, "fix.diff")))
    # Lines of each file (1-based) that a finding's fix edits touch.
    touched = {}
    try:
        report = json.loads(read(os.path.join(work, "check.json")))
    except ValueError:
        report = {"diagnostics": []}
    for d in report.get("diagnostics", []):
        if d.get("fix"):
            s = touched.setdefault(os.path.normpath(d["path"]), set())
            for e in d["fix"]["edits"]:
                s.update(range(e["line"], e["end_line"] + 1))
    files = changed = compiled = compiled_before = idem = verified = explained = 0
    bad = []
    for dirpath, dirs, names in os.walk(orig_root):
        for n in names:
            p = os.path.join(dirpath, n)
            if not n.endswith(".py") or os.path.islink(p) or not os.path.isfile(p):
                continue
            rel = os.path.relpath(p, orig_root)
            files += 1
            o = read(p)
            f = read(os.path.join(work, "fixed", rel))
            f2 = read(os.path.join(work, "fixed2", rel))
            if f2 == f:
                idem += 1
            else:
                bad.append("not idempotent: " + rel)
            hunks = diff.get(os.path.normpath(rel), [])
            if (apply(o, hunks) if hunks else o) == f:
                verified += 1
            else:
                bad.append("bytes outside the reported edits differ: " + rel)
            if o == f:
                continue
            changed += 1
            if compiles(o, rel):
                compiled_before += 1
                if compiles(f, rel):
                    compiled += 1
                else:
                    bad.append("no longer compiles: " + rel)
            ok = explain_removed(o, f, touched.get(os.path.normpath(rel), set()))
            if ok:
                explained += 1
            else:
                bad.append("a changed line has no reported edit: " + rel)
    print(
        "%s: files %d, changed %d, compiled %d/%d, idempotent %d/%d, edits verified %d/%d, explained %d/%d"
        % (name, files, changed, compiled, compiled_before, idem, files, verified, files, explained, changed)
    )
    for b in sorted(bad)[:50]:
        print("  " + b)
    return 1 if [b for b in bad if not b.startswith("a changed line")] else 0


def explain_removed(orig, fixed, lines):
    """Every line of orig that difflib says was removed or replaced is in lines or an import."""
    import difflib

    a = orig.splitlines()
    b = fixed.splitlines()
    for tag, i1, i2, _, _ in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag in ("replace", "delete"):
            for k in range(i1, i2):
                t = a[k].strip()
                if (k + 1) in lines or not t or t.startswith((b"import ", b"from ", b"#")):
                    continue
                # a line inside a multi-line import's parentheses
                if re.fullmatch(rb"[\w., ()]*", t):
                    continue
                return False
    return True


if __name__ == "__main__":
    sys.exit(main())
