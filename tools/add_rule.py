#!/usr/bin/env python3
"""Scaffolds a new Python rule: the YAML file, the fixture folder and its input, and prints what
is left to do.

    tools/add_rule.py <rule-id> --category <category> [--keep]

The id is kebab-case and names the flagged pattern (`cuda-set-device`). Nothing else in the
repository needs editing: rules are discovered from rules/, fixtures from tests/rules/.
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEBAB = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")

RULE = """# yaml-language-server: $schema=../schema.json
id: {id}
{kind}language: python
category: {category}
severity: {severity}
message: "TODO: one line saying what is CUDA-specific"
description: |
  TODO: what it finds, and what replaces it.
any:
  - torch.cuda.TODO($$$ARGS)
{fix}"""

FIX = """fix:
  - since: "2.6"
    template: torch.accelerator.TODO($$$ARGS)
    applicability: safe
examples:
  - before: "torch.cuda.TODO()"
    after: "torch.accelerator.TODO()"
"""

INPUT = """import torch

torch.cuda.TODO()  # expect: {id}

# Negatives: strings, comments, docstrings, lookalikes, mocks, checks.
"torch.cuda.TODO()"
# torch.cuda.TODO()
torch.xpu.TODO()
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("id")
    ap.add_argument("--category", required=True)
    ap.add_argument("--keep", action="store_true", help="a keep rule: code that must stay CUDA")
    a = ap.parse_args()
    for name, value in (("id", a.id), ("category", a.category)):
        if not KEBAB.match(value):
            print(f"add_rule: invalid {name} '{value}' (kebab-case: lower-case letters, digits, '-')",
                  file=sys.stderr)
            return 2
    rule = os.path.join(ROOT, "rules", "python", a.id + ".yaml")
    fixture = os.path.join(ROOT, "tests", "rules", a.id)
    if os.path.exists(rule) or os.path.exists(fixture):
        print(f"add_rule: {a.id} exists already", file=sys.stderr)
        return 2
    with open(rule, "w", encoding="utf-8") as f:
        f.write(RULE.format(id=a.id, category=a.category, kind="kind: keep\n" if a.keep else "",
                            severity="info" if a.keep else "warning",
                            fix="" if a.keep else FIX))
    os.makedirs(fixture)
    with open(os.path.join(fixture, "input.py"), "w", encoding="utf-8") as f:
        f.write(INPUT.format(id=a.id))
    rel = lambda p: os.path.relpath(p, ROOT)
    print(f"created {rel(rule)} and {rel(fixture)}/input.py. Left to do:\n"
          f"  1. write the patterns, message and fix in {rel(rule)} from ../shared/RULES.md\n"
          f"  2. write positive (# expect: {a.id}) and negative cases in {rel(fixture)}/input.py\n"
          f"  3. cmake build && UPDATE_GOLDEN=1 ctest --test-dir build -R rule.{a.id}; read the goldens\n"
          f"  4. tools/gen_docs.py --devport build/devport")
    return 0


if __name__ == "__main__":
    sys.exit(main())
