#!/usr/bin/env python3
"""tree_sitter_profile.py: a profile-guided build of tree-sitter uses its profile.

    tree_sitter_profile.py BUILD_DIR

With DEVPORT_TREE_SITTER_PGO (cmake/TreeSitter.cmake), tree-sitter's libraries are compiled
with the counts of a training run. GCC says nothing when it finds none, or when it finds them
under another name and keeps only those of the exported functions (what happened when the
instrumented and the final objects had different paths: no static function of parser.c had
its counts). This compiles each final tree-sitter object again, as the build did (from
compile_commands.json) but into a temporary file and with GCC's profile warnings on, and fails
on any: a profile file not found, a function without counts, counts that do not fit.
"""
import json
import os
import shlex
import subprocess
import sys
import tempfile

FINAL = ("/tree_sitter_core.dir/", "/tree_sitter_python.dir/")


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    db = os.path.join(sys.argv[1], "compile_commands.json")
    with open(db) as f:
        entries = [e for e in json.load(f) if any(t in e["command"] for t in FINAL)]
    if len(entries) < 14:  # 12 core sources, the grammar's parser and scanner
        print(f"{db}: {len(entries)} tree-sitter objects, expected 14", file=sys.stderr)
        return 1
    failed = 0
    with tempfile.TemporaryDirectory(prefix="devport-profile-") as tmp:
        for i, e in enumerate(entries):
            args = shlex.split(e["command"])
            if os.path.basename(args[0]).startswith("ccache"):
                args = args[1:]
            if "-fprofile-use" not in args:
                print(f"{e['file']}: compiled without -fprofile-use", file=sys.stderr)
                failed += 1
                continue
            args[args.index("-o") + 1] = os.path.join(tmp, f"{i}.o")
            args = [a for a in args if a != "-w"] + ["-Wmissing-profile", "-Wcoverage-mismatch"]
            r = subprocess.run(args, cwd=e["directory"], capture_output=True, text=True)
            problems = [l for l in r.stderr.splitlines()
                        if "profile" in l or "coverage" in l or "error" in l]
            if r.returncode != 0 or problems:
                failed += 1
                print(f"{e['file']}: exit {r.returncode}", file=sys.stderr)
                for l in problems[:5]:
                    print("  " + l, file=sys.stderr)
    print(f"{len(entries)} tree-sitter objects, {failed} without their profile")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
