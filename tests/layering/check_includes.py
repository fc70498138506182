#!/usr/bin/env python3
"""check_includes.py: the #include lines of devport's sources follow the layers.

    check_includes.py SOURCE_DIR        exit 0 if every include is allowed, 1 otherwise
    check_includes.py --self-test       checks the checker on made-up trees

Layers (docs/architecture.md), each a folder and a CMake target; a folder may include
its own headers and those of the folders listed for it, nothing else:

    tools/devport, lsp  ->  engine, report  ->  matchers/<language>  ->  rewriters  ->  core

core includes nothing above it; a backend (matchers/<language>) never includes another
backend; report never includes engine nor a backend. Besides the table, the include graph
between folders must have no cycle, and every source folder must be in the table (a new
folder is a decision, not an accident).
"""
import os
import re
import sys

# folder -> folders it may include (besides itself). "matchers/*" means any backend.
ALLOWED = {
    "core": [],
    "rewriters": ["core"],
    "matchers/*": ["core", "rewriters"],
    "engine": ["core", "rewriters", "matchers/*"],
    "report": ["core", "rewriters"],
    "lsp": ["core", "engine", "report"],
    "tools/devport": ["core", "rewriters", "engine", "report", "lsp"],
}
SOURCE_ROOTS = ["core", "rewriters", "matchers", "engine", "report", "lsp", "tools"]
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]+"([^"]+)"', re.M)
EXTENSIONS = (".h", ".hpp", ".cpp", ".cc", ".inc")


def folder_of(path):
    """The layer folder of a repository-relative path, or None outside the layers."""
    parts = path.split("/")
    if parts[0] in ("matchers", "tools") and len(parts) > 2:
        return "/".join(parts[:2])
    if parts[0] in SOURCE_ROOTS and len(parts) > 1:
        return parts[0]
    return None


def rule_for(folder):
    if folder in ALLOWED:
        return ALLOWED[folder]
    if folder.startswith("matchers/"):
        return ALLOWED["matchers/*"]
    return None


def allowed(src, dst):
    if src == dst:
        return True
    rule = rule_for(src)
    if rule is None:
        return False
    return dst in rule or (dst.startswith("matchers/") and "matchers/*" in rule)


def find_cycle(edges):
    """A list of folders forming a cycle in edges (folder -> set of folders), or None."""
    state = {}
    stack = []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for m in sorted(edges.get(n, ())):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if m not in state:
                found = visit(m)
                if found:
                    return found
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(edges):
        if n not in state:
            found = visit(n)
            if found:
                return found
    return None


def check(root):
    """Problems as 'file:line: reason' strings."""
    problems = []
    edges = {}
    for top in SOURCE_ROOTS:
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith(EXTENSIONS):
                    continue
                full = os.path.join(dirpath, name)
                rel = os.path.relpath(full, root).replace(os.sep, "/")
                src = folder_of(rel)
                if src is None:
                    continue
                if rule_for(src) is None:
                    problems.append(f"{rel}:1: folder '{src}' is not in the layer table "
                                    "(tests/layering/check_includes.py, docs/architecture.md)")
                    continue
                with open(full, encoding="utf-8", errors="replace") as f:
                    text = f.read()
                for m in INCLUDE.finditer(text):
                    dst = folder_of(m.group(1))
                    if dst is None:
                        continue  # a third-party or generated header
                    line = text.count("\n", 0, m.start()) + 1
                    if dst != src:
                        edges.setdefault(src, set()).add(dst)
                    if not allowed(src, dst):
                        problems.append(f"{rel}:{line}: '{src}' may not include '{m.group(1)}' "
                                        f"(layer '{dst}' is not below it)")
    cycle = find_cycle(edges)
    if cycle:
        problems.append("include cycle between folders: " + " -> ".join(cycle))
    return problems


def self_test():
    import tempfile

    def tree(files):
        d = tempfile.mkdtemp(prefix="layering-")
        for path, text in files.items():
            full = os.path.join(d, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w") as f:
                f.write(text)
        return d

    good = tree({"core/A.h": '#include "llvm/ADT/StringRef.h"\n',
                 "rewriters/B.h": '#include "core/A.h"\n',
                 "matchers/python/C.cpp": '#include "rewriters/B.h"\n#include "core/A.h"\n',
                 "engine/D.cpp": '#include "matchers/python/C.h"\n',
                 "tools/devport/E.cpp": '#include "engine/D.h"\n#include "report/R.h"\n'})
    assert check(good) == [], check(good)
    up = check(tree({"core/A.h": '#include "engine/Engine.h"\n'}))
    assert len(up) == 1 and "core/A.h:1" in up[0], up
    side = check(tree({"matchers/cpp/X.cpp": '\n#include "matchers/python/Y.h"\n'}))
    assert len(side) == 1 and "matchers/cpp/X.cpp:2" in side[0], side
    report_engine = check(tree({"report/R.cpp": '#include "engine/Engine.h"\n'}))
    assert len(report_engine) == 1, report_engine
    unknown = check(tree({"tools/other/M.cpp": '#include "core/A.h"\n'}))
    assert len(unknown) == 1 and "not in the layer table" in unknown[0], unknown
    assert find_cycle({"a": {"b"}, "b": {"a"}}) == ["a", "b", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}}) is None
    print("check_includes self-test: 7 passed, 0 failed")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    problems = check(argv[1])
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} include(s) break the layers", file=sys.stderr)
        return 1
    print("includes follow the layers")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
