#!/usr/bin/env bash
# roundtrip.sh: `devport fix --unsafe-fixes` over real codebases loses nothing (docs/testing.md).
#
#   tests/corpus/roundtrip.sh [--devport BIN] DIR...
#
# For each DIR (a source tree; it is never written) the script copies the tree twice into a
# temporary directory, asks `devport fix --unsafe-fixes --diff` for the edits on one copy (nothing
# written), runs `devport fix --unsafe-fixes` on the other, and checks, for every Python file:
#   compiled     a changed file that compiled before (python3's compile(), as py_compile does)
#                still compiles;
#   idempotent   a second `fix --unsafe-fixes` over the fixed copy changes no byte;
#   verified     the fixed file is the original with the reported diff's hunks applied (strict:
#                every context and removed line must match), byte for byte: no byte outside the
#                reported edits changed, and every changed file is in the report;
#   explained    every line the diff removes or rewrites is on a line of a finding's fix edit
#                (`check --format json`), or is an import that the fixes left
#                unused (later fix rounds edit the lines that earlier rounds wrote).
# and prints one line of counts per codebase. Exit 1 if any check failed (the files are listed).
# BIN defaults to build/devport. Run by hand (minutes on PyTorch's 3,000+ files); not in CI.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
DEVPORT=$HERE/../../build/devport
if [[ "${1:-}" == --devport ]]; then DEVPORT=$(realpath "$2"); shift 2; fi
(($#)) || { sed -n 2,22p "$0"; exit 2; }
status=0
for src in "$@"; do
  src=$(realpath "$src")
  work=$(mktemp -d)
  # -P: symlinks stay links (devport skips or follows them as it does in the user's tree).
  cp -a "$src" "$work/orig"
  cp -a "$src" "$work/fixed"
  cp -a "$src" "$work/plan"
  (cd "$work/plan" && "$DEVPORT" fix --unsafe-fixes --diff --threads 2 . >"$work/fix.diff" 2>"$work/diff.err") || true
  (cd "$work/plan" && "$DEVPORT" check --format json --threads 2 . >"$work/check.json" 2>/dev/null) || true
  (cd "$work/fixed" && "$DEVPORT" fix --unsafe-fixes --threads 2 . >"$work/fix1.txt" 2>&1) || true
  cp -a "$work/fixed" "$work/fixed2"
  (cd "$work/fixed2" && "$DEVPORT" fix --unsafe-fixes --threads 2 . >"$work/fix2.txt" 2>&1) || true
  python3 "$HERE/roundtrip_verify.py" "$(basename "$src")" "$work" || status=1
  rm -rf "$work"
done
exit $status
