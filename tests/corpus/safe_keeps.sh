#!/usr/bin/env bash
# safe_keeps.sh: `devport fix` (safe fixes only) over real codebases leaves what `check` calls
# unsafe or leaves without a fix (docs/testing.md).
#
#   tests/corpus/safe_keeps.sh [--devport BIN] [--target-torch X.Y] DIR...
#
# For each DIR (never written) the script checks a copy (`check --format json`), runs `devport fix`
# on it twice (the second run reads what the first wrote, as a user's next run would), checks it
# again, and requires every finding that the first check reported with an unsafe fix or none to
# be found again, by its rule and its text, in the same file. Findings that hold a finding with a
# safe fix (whose text that fix changes) are left out. A lost one is a fix that `check` did not
# call safe and `fix` applied all the same: a review that read code the earlier fixes had ported
# (docs/safety.md, "Code that is ported already"). Prints one line per codebase and each lost
# finding; exit 1 if one was lost. BIN defaults to build/devport. Run by hand; not in CI.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
DEVPORT=$HERE/../../build/devport
TARGET=()
while [[ "${1:-}" == --* ]]; do
  case "$1" in
    --devport) DEVPORT=$(realpath "$2"); shift 2 ;;
    --target-torch) TARGET=(--target-torch "$2"); shift 2 ;;
    *) sed -n 2,14p "$0"; exit 2 ;;
  esac
done
(($#)) || { sed -n 2,14p "$0"; exit 2; }
status=0
for src in "$@"; do
  src=$(realpath "$src")
  work=$(mktemp -d)
  cp -a "$src" "$work/orig"
  cp -a "$src" "$work/fixed"
  (cd "$work/orig" && "$DEVPORT" check "${TARGET[@]}" --format json . >"$work/before.json" 2>/dev/null) || true
  (cd "$work/fixed" && "$DEVPORT" fix "${TARGET[@]}" -q . >/dev/null 2>&1) || true
  (cd "$work/fixed" && "$DEVPORT" fix "${TARGET[@]}" -q . >/dev/null 2>&1) || true
  (cd "$work/fixed" && "$DEVPORT" check "${TARGET[@]}" --format json . >"$work/after.json" 2>/dev/null) || true
  python3 - "$(basename "$src")" "$work" <<'PY' || status=1
import collections, json, os, sys

name, work = sys.argv[1:]


def findings(tree, report):
    """(relative path, finding, file bytes) of a check's JSON report over tree."""
    cache = {}
    for x in json.load(open(os.path.join(work, report)))["diagnostics"]:
        rel = os.path.relpath(os.path.join(work, tree, x["path"]), os.path.join(work, tree))
        if rel not in cache:
            cache[rel] = open(os.path.join(work, tree, rel), "rb").read().split(b"\n")
        yield rel, x, cache[rel]


def text(x, lines):
    first, last = x["line"] - 1, x.get("end_line", x["line"]) - 1
    if first == last:
        return lines[first][x["column"] - 1:x["end_column"] - 1]
    return b"\n".join([lines[first][x["column"] - 1:]] + lines[first + 1:last] +
                      [lines[last][:x["end_column"] - 1]])


def span(x):
    return (x["line"], x["column"], x.get("end_line", x["line"]), x["end_column"])


safe, refused = collections.defaultdict(list), []
for rel, x, lines in findings("orig", "before.json"):
    if (x.get("fix") or {}).get("applicability") == "safe":
        safe[rel].append(span(x))
    else:
        refused.append((rel, x, lines))
before = collections.Counter()
for rel, x, lines in refused:
    s = span(x)
    if any(o != s and o[:2] >= s[:2] and o[2:] <= s[2:] for o in safe[rel]):
        continue  # holds a safely fixed finding: its text changes with it
    before[(rel, x["rule"], text(x, lines))] += 1
after = collections.Counter((rel, x["rule"], text(x, lines))
                            for rel, x, lines in findings("fixed", "after.json"))
lost = {k: c - after[k] for k, c in before.items() if after[k] < c}
print(f"{name}: {sum(before.values())} findings unsafe or without a fix, "
      f"{sum(lost.values())} changed by fix")
for (rel, rule, t), c in sorted(lost.items()):
    print(f"  {rel}: {c} x [{rule}] {t.decode(errors='replace')[:100]}")
sys.exit(1 if lost else 0)
PY
  rm -rf "$work"
done
exit $status
