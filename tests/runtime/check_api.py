#!/usr/bin/env python3
"""Every PyTorch API that a rule's fix writes exists in the installed torch, with a signature
that accepts the call as the template writes it (no keyword for a positional-only parameter, no
extra positional argument for a keyword-only one).

    check_api.py DEVPORT [RULES_DIR]
    check_api.py RULES.json          (`devport rules --format json` saved, for a machine
                                      without devport)

Exit 0: all good; 1: a template names a missing API or calls it wrongly; 77: torch is not
importable here (CTest reports the test as skipped).
"""
import ast
import inspect
import json
import re
import subprocess
import sys

DEVICE = "torch.accelerator.current_accelerator()"


def templates(devport, rules_dir):
    if devport.endswith(".json"):
        with open(devport, encoding="utf-8") as f:
            rules = json.load(f)
    else:
        args = [devport, "rules", "--format", "json"] + (["--rules", rules_dir] if rules_dir else [])
        rules = json.loads(subprocess.run(args, check=True, capture_output=True, text=True).stdout)
    for rule in rules:
        if rule.get("language") != "python":
            continue  # C++ templates name ATen/c10 APIs, not torch's Python ones
        for fix in rule["fixes"]:
            yield rule["id"], fix["since"], fix["template"]


def as_python(template):
    """The template with metavariables as plain names, parseable by ast."""
    t = template.replace("$DEVICE_TYPE", DEVICE + ".type").replace("$DEVICE", DEVICE)
    t = re.sub(r"\$\$\$([A-Z_][A-Z0-9_]*)", r"*\1_", t)
    return re.sub(r"\$([A-Z_][A-Z0-9_]*)", r"\1_", t)


def dotted(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def resolve(torch, name):
    obj = torch
    for part in name.split(".")[1:]:
        if not hasattr(obj, part):
            return None, part
        obj = getattr(obj, part)
    return obj, None


def check_call(obj, call):
    """Problems with calling obj the way call does."""
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return []  # a builtin without a signature: existence is all we can check
    params = list(sig.parameters.values())
    kinds = {p.name: p.kind for p in params}
    has_var_kw = any(p.kind == p.VAR_KEYWORD for p in params)
    has_var_pos = any(p.kind == p.VAR_POSITIONAL for p in params)
    problems = []
    for kw in call.keywords:
        if kw.arg is None:
            continue
        kind = kinds.get(kw.arg)
        if kind is None and not has_var_kw:
            problems.append(f"no parameter named {kw.arg!r}")
        elif kind == inspect.Parameter.POSITIONAL_ONLY:
            problems.append(f"{kw.arg!r} is positional-only")
    positional = [a for a in call.args if not isinstance(a, ast.Starred)]
    capacity = sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)
    if len(positional) > capacity and not has_var_pos:
        problems.append(f"{len(positional)} positional arguments, at most {capacity} accepted")
    return problems


def main():
    devport = sys.argv[1]
    rules_dir = sys.argv[2] if len(sys.argv) > 2 else None
    try:
        import torch  # noqa: F401
        import torch.distributed  # noqa: F401
    except Exception as e:  # ImportError, or a broken install
        print(f"skipped: torch is not importable here ({e})")
        return 77
    failures = checked = composed = 0
    for rule, since, template in templates(devport, rules_dir):
        if re.search(r"\$[A-Z_][A-Z0-9_]*\$", template):
            # A name spelled from captures (`torch.$GVERB$GMID...`), one per alternative of the
            # rule's regex: not resolvable from the template alone.
            composed += 1
            print(f"not checked: {rule} (since {since}): {template}")
            continue
        tree = ast.parse(as_python(template), mode="exec")
        for node in ast.walk(tree):
            target = node.func if isinstance(node, ast.Call) else node
            name = dotted(target) if isinstance(target, (ast.Attribute, ast.Name)) else None
            if not name or not name.startswith("torch."):
                continue
            if isinstance(node, ast.Attribute) and any(
                    isinstance(p, ast.Call) and p.func is node for p in ast.walk(tree)):
                continue  # checked as the call
            checked += 1
            obj, missing = resolve(torch, name)
            if obj is None:
                failures += 1
                print(f"FAIL {rule} (since {since}): {name} does not exist (no {missing!r})")
                continue
            if isinstance(node, ast.Call):
                for problem in check_call(obj, node):
                    failures += 1
                    print(f"FAIL {rule} (since {since}): {template}: {name}: {problem}")
    print(f"torch {torch.__version__}: {checked} API uses checked, {failures} problems "
          f"({composed} templates with names composed of captures not checked)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
