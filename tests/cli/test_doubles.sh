#!/usr/bin/env bash
# A fix in a module that a test of the project runs with a double of the torch.cuda function it
# rewrites (Megatron-LM's tests: `monkeypatch.setattr(torch.cuda, "current_device", ...)`, then
# the module's code on the CPU): ported, the code no longer reaches the double, and the test
# fails on CUDA too. docs/safety.md, "Tests".
#   test_doubles.sh DEVPORT_BINARY
set -u
DEVPORT=$(realpath "$1")
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d /tmp/devport-doubles.XXXXXX)
trap 'rm -rf "$T"' EXIT
cd "$T"
. "$HERE/harness.sh"

mkdir -p proj/pkg proj/tests proj/.venv/lib
printf '[project]\nname = "pkg"\n' > proj/pyproject.toml
: > proj/pkg/__init__.py
cat > proj/pkg/engine.py <<'PY'
import torch


def make_state(n):
    return torch.zeros(n, device=torch.cuda.current_device())


def wait():
    torch.cuda.synchronize()


def count():
    return torch.cuda.device_count()
PY
cat > proj/pkg/other.py <<'PY'
import torch


def make_state(n):
    return torch.zeros(n, device=torch.cuda.current_device())
PY
cat > proj/tests/test_engine.py <<'PY'
from unittest import mock

import torch
from pkg.engine import make_state, wait


def test_cpu_state(monkeypatch):
    monkeypatch.setattr(torch.cuda, "current_device", lambda: "cpu")
    assert make_state(4).device.type == "cpu"


def test_wait():
    with mock.patch("torch.cuda.synchronize") as sync:
        wait()
    sync.assert_called_once()
PY
# The other shapes of a double, and of an import: a submodule by name, a module whole.
cat > proj/pkg/third.py <<'PY'
import torch


def first():
    return torch.cuda.current_device()


def second():
    return torch.cuda.is_available()


def third():
    return torch.cuda.device_count()
PY
cat > proj/tests/test_third.py <<'PY'
from unittest import mock

import torch
from pkg import third


def test_first():
    with mock.patch.object(torch.cuda, "current_device", return_value=0):
        assert third.first() == 0


def test_second():
    torch.cuda.is_available = lambda: False
    assert not third.second()
PY
cat > proj/tests/test_whole.py <<'PY'
import pkg.other
import torch


def test_mentions_only():
    # Calls torch.cuda, replaces nothing: no double.
    assert torch.cuda.device_count() >= 0
PY
# black's layout of a double, in a test that calls torch.cuda nowhere else.
cat > proj/pkg/fourth.py <<'PY'
import torch


def first():
    return torch.cuda.current_device()
PY
cat > proj/tests/test_fourth.py <<'PY'
import torch
from pkg import fourth


def test_first(monkeypatch):
    monkeypatch.setattr(
        torch.cuda, "current_device", lambda: 0
    )
    assert fourth.first() == 0
PY
# A test that is no test of the project: in a virtual environment.
cat > proj/.venv/lib/test_vendored.py <<'PY'
import torch
from pkg.other import make_state


def test_vendored(monkeypatch):
    monkeypatch.setattr(torch.cuda, "current_device", lambda: "cpu")
PY

# applicability RULE LINE JSON: the fix's applicability ("none" without a fix).
applicability() {
  python3 - "$1" "$2" "$3" <<'PYEOF'
import json, sys
rule, line, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
for d in json.load(open(path))["diagnostics"]:
    if d["rule"] == rule and d["line"] == line and d["path"].endswith(("engine.py", "other.py", "fourth.py")):
        print((d.get("fix") or {}).get("applicability", "none"))
        break
else:
    print("missing")
PYEOF
}
is() { if [ "$1" = "$2" ]; then ok; else bad "$3: got $1, want $2"; fi; }

for target in proj proj/pkg/engine.py; do
  expect_exit 1 "$DEVPORT" check --target-torch 2.9 --format json "$target"
  cp "$T/out" "$T/run.json"
  is "$(applicability cuda-current-device 5 "$T/run.json")" unsafe "$target: current_device, doubled"
  is "$(applicability cuda-synchronize 9 "$T/run.json")" unsafe "$target: synchronize, doubled"
  is "$(applicability cuda-device-count 13 "$T/run.json")" safe "$target: device_count, no double"
done
contains "$T/run.json" "tests/test_engine.py"
expect_exit 1 "$DEVPORT" check --target-torch 2.9 --format json proj/pkg/other.py
cp "$T/out" "$T/other.json"
is "$(applicability cuda-current-device 5 "$T/other.json")" safe "other.py: no test of the project imports it"
expect_exit 1 "$DEVPORT" check --target-torch 2.9 --format json proj/pkg/third.py
cp "$T/out" "$T/third.json"
python3 - "$T/third.json" > "$T/third.txt" <<'PYEOF'
import json, sys
for d in json.load(open(sys.argv[1]))["diagnostics"]:
    print(d["line"], d["rule"], (d.get("fix") or {}).get("applicability", "none"))
PYEOF
contains "$T/third.txt" "5 cuda-current-device unsafe"
contains "$T/third.txt" "9 cuda-is-available unsafe"
contains "$T/third.txt" "13 cuda-device-count safe"
contains "$T/third.json" "tests/test_third.py (line 8)"
expect_exit 1 "$DEVPORT" check --target-torch 2.9 --format json proj/pkg/fourth.py
cp "$T/out" "$T/fourth.json"
is "$(applicability cuda-current-device 5 "$T/fourth.json")" unsafe "fourth.py: doubled over two lines"
contains "$T/fourth.json" "tests/test_fourth.py (line 6)"
# What fix writes: the doubled calls stay.
expect_exit 1 "$DEVPORT" fix --target-torch 2.9 proj/pkg/engine.py
contains proj/pkg/engine.py "torch.cuda.current_device()"
contains proj/pkg/engine.py "torch.cuda.synchronize()"
contains proj/pkg/engine.py "torch.accelerator.device_count()"
summary
