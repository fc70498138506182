#!/usr/bin/env bash
# devport's SARIF against the SARIF 2.1.0 JSON schema (tests/report/validate_sarif.js): every rule
# fixture (Python and C++), with and without --show-kept, the findings left by a fix run, a file
# that cannot be read, and paths that need percent-encoding.
#   sarif_schema.sh DEVPORT_BINARY SOURCE_DIR
set -u
DEVPORT=$(realpath "$1")
SRC=$(realpath "$2")
T=$(mktemp -d /tmp/devport-sarif.XXXXXX)
trap 'rm -rf "$T"' EXIT
command -v node >/dev/null || { echo "node is missing (run scripts/bootstrap.sh)"; exit 1; }
cd "$T"
"$DEVPORT" check --format sarif --root "$SRC" "$SRC/tests/rules" > fixtures.sarif
"$DEVPORT" check --format sarif --show-kept --root "$SRC" "$SRC/tests/rules" > fixtures-kept.sarif
mkdir -p "w/my dir" && cp -r "$SRC/tests/rules/cuda-current-stream" "w/my dir/#100% é"
printf 'import torch\nx = "caf\xe9"\n' > w/latin1.py
"$DEVPORT" fix --format sarif --root w w > fix.sarif
python3 - fixtures.sarif fixtures-kept.sarif <<'PY' || exit 1
import json, sys
plain, kept = (json.load(open(f))["runs"][0]["results"] for f in sys.argv[1:3])
n = len(plain)
suppressed = sum(1 for r in plain if r.get("suppressions"))
informational = sum(1 for r in kept if r.get("kind") == "informational")
print(f"fixtures: {n} results ({suppressed} suppressed); --show-kept adds {informational} keep matches")
assert n > 100 and suppressed > 0 and informational > 0 and len(kept) == n + informational
PY
node "$SRC/tests/report/validate_sarif.js" "$SRC" fixtures.sarif fixtures-kept.sarif fix.sarif
