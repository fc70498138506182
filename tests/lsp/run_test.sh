#!/usr/bin/env bash
# Runs one scripted LSP session (tests/lsp/*.test): the file's messages go to
# `devport lsp --lit-test`, and FileCheck checks the transcript against the
# file's CHECK lines. A `# EXIT: N` line sets the expected exit status
# (default 0); stderr (the server's log) is checked with LOG: lines.
#   run_test.sh DEVPORT FILECHECK TEST
set -euo pipefail
devport=$(realpath "$1") filecheck=$2 test=$(realpath "$3")
out=$(mktemp) err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
want=$(sed -n 's/^# EXIT: *\([0-9]*\).*/\1/p' "$test")
want=${want:-0}
set +e
(cd "$(dirname "$test")" && "$devport" lsp --lit-test --docs-url https://devport.test/rules/ <"$test" >"$out" 2>"$err")
rc=$?
set -e
if [[ $rc != "$want" ]]; then
  echo "exit status $rc, expected $want; stderr:"; cat "$err"; exit 1
fi
"$filecheck" --input-file "$out" "$test"
if grep -q '^# LOG:' "$test"; then
  "$filecheck" --check-prefix=LOG --input-file "$err" "$test"
fi
