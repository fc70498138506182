#!/usr/bin/env bash
# End-to-end tests of the real devport binary: exit codes, output shapes, files on disk.
#   end_to_end.sh DEVPORT_BINARY SOURCE_DIR
set -u
DEVPORT=$(realpath "$1")
SRC=$2
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d /tmp/devport-e2e.XXXXXX)
trap 'rm -rf "$T"' EXIT
cd "$T"
. "$HERE/harness.sh"

mkdir proj
cat > proj/clean.py <<'PY'
import torch
n = torch.accelerator.device_count()
PY
cat > proj/dirty.py <<'PY'
import torch

torch.cuda.set_device(rank)
n = torch.cuda.device_count()
s = torch.cuda.current_stream()
PY
chmod 755 proj/dirty.py

# Usage errors: exit 2.
expect_exit 0 "$DEVPORT" --help; contains "$T/out" "usage: devport check"
expect_exit 0 "$DEVPORT" --version; contains "$T/out" "devport "
expect_exit 2 "$DEVPORT"
expect_exit 2 "$DEVPORT" bogus
expect_exit 2 "$DEVPORT" check --no-such-flag proj; contains "$T/err" "unknown option '--no-such-flag'"
expect_exit 2 "$DEVPORT" check --target-torch two proj; contains "$T/err" "invalid --target-torch"
expect_exit 2 "$DEVPORT" check --format xml proj
expect_exit 2 "$DEVPORT" check --select no-such-rule proj; contains "$T/err" "no-such-rule"
expect_exit 2 "$DEVPORT" check does-not-exist.py; contains "$T/err" "does-not-exist.py"
expect_exit 2 "$DEVPORT" explain no-such-rule
expect_exit 2 "$DEVPORT" check --diff proj

# A broken rule file: exit 2 with file and line.
mkdir -p badrules/python
printf 'id: broken-rule\nlanguage: python\ncategory: x\nseverity: loud\nmessage: m\npattern: f()\n' > badrules/python/broken-rule.yaml
expect_exit 2 "$DEVPORT" check --rules badrules proj; contains "$T/err" "broken-rule.yaml:4"

# check: 0 clean, 1 findings, compiler-style text.
expect_exit 0 "$DEVPORT" check proj/clean.py
expect_exit 1 "$DEVPORT" check proj
contains "$T/out" "proj/dirty.py:3:1: warning:"
contains "$T/out" "[cuda-set-device]"
contains "$T/out" "^~~~"
contains "$T/out" "= fix (safe): torch.accelerator.set_device_index(rank)"
contains "$T/out" "Found 3 findings in 2 files"

# --show-kept lists what keep rules account for.
printf 'import torch\ntorch.backends.cudnn.benchmark = True\n' > proj/kept.py
expect_exit 0 "$DEVPORT" check proj/kept.py; contains "$T/out" "1 CUDA-specific place kept as CUDA (list them with --show-kept)"
expect_exit 0 "$DEVPORT" check --show-kept proj/kept.py; contains "$T/out" "[keep-cudnn]"
expect_exit 0 "$DEVPORT" check --show-kept --format json proj/kept.py
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [k["rule"] for k in d["kept"]]==["keep-cudnn"] and d["summary"]["kept"]==1, d' "$T/out" && ok || bad "kept json"
rm proj/kept.py

# rules and explain.
expect_exit 0 "$DEVPORT" rules; contains "$T/out" "cuda-set-device"
expect_exit 0 "$DEVPORT" explain cuda-set-device; contains "$T/out" "set_device_index"
expect_exit 0 "$DEVPORT" rules --format json
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert any(x["id"]=="cuda-set-device" for x in r)' "$T/out" && ok || bad "rules json"

# JSON shape.
expect_exit 1 "$DEVPORT" check --format json proj
python3 - "$T/out" <<'PY' && ok || bad "json shape"
import json, sys
doc = json.load(open(sys.argv[1]))
ds = doc["diagnostics"]
assert len(ds) == 3, ds
keys = {"rule", "path", "line", "column", "end_line", "end_column", "severity", "message", "fix"}
for d in ds:
    assert keys <= set(d), d
d = [d for d in ds if d["rule"] == "cuda-set-device"][0]
assert (d["line"], d["column"], d["end_line"], d["end_column"]) == (3, 1, 3, 28), d
assert d["fix"]["applicability"] == "safe"
assert [e["content"] for e in d["fix"]["edits"]] == ["accelerator.set_device_index"], d
s = [d for d in ds if d["rule"] == "cuda-current-stream"][0]
assert s["fix"]["applicability"] == "unsafe"
assert doc["summary"]["findings"] == 3 and doc["summary"]["files"] == 2
PY

# --select / --ignore.
expect_exit 1 "$DEVPORT" check --select cuda-set-device proj; contains "$T/out" "Found 1 finding"
expect_exit 1 "$DEVPORT" check --ignore cuda-set-device,cuda-device-count proj; contains "$T/out" "Found 1 finding"

# fix --diff writes nothing, and the diff applies.
before=$(sha256sum proj/dirty.py)
expect_exit 1 "$DEVPORT" fix --diff proj
contains "$T/out" "+torch.accelerator.set_device_index(rank)"
[ "$before" = "$(sha256sum proj/dirty.py)" ] && ok || bad "--diff wrote the file"
if command -v patch >/dev/null; then
  cp -r proj proj-patched
  (cd proj-patched/.. && sed 's#proj/#proj-patched/#g' "$T/out" | patch -p0 -s) && ok || bad "diff does not apply"
fi

# fix: applies safe fixes, keeps the mode, second run changes nothing.
expect_exit 1 "$DEVPORT" fix proj   # the unsafe current_stream finding remains
contains "$T/out" "Applied 2 fixes in 1 file"
grep -q "torch.accelerator.set_device_index(rank)" proj/dirty.py && ok || bad "fix not written"
grep -q "torch.cuda.current_stream()" proj/dirty.py && ok || bad "unsafe fix applied without --unsafe-fixes"
[ "$(stat -c %a proj/dirty.py)" = 755 ] && ok || bad "mode not kept"
[ -z "$(ls -A proj | grep -v -E '^(clean|dirty)\.py$')" ] && ok || bad "temp files left: $(ls -A proj)"
if command -v patch >/dev/null; then cmp -s proj/dirty.py proj-patched/dirty.py && ok || bad "diff and fix disagree"; fi
after=$(sha256sum proj/dirty.py)
expect_exit 1 "$DEVPORT" fix proj
contains "$T/out" "Applied 0 fixes in 0 files"
[ "$after" = "$(sha256sum proj/dirty.py)" ] && ok || bad "second fix changed the file"
expect_exit 0 "$DEVPORT" fix --unsafe-fixes proj
grep -q "torch.accelerator.current_stream()" proj/dirty.py && ok || bad "unsafe fix not applied"
python3 -m py_compile proj/dirty.py && ok || bad "fixed file does not compile"

# Bad files: reported, never written; the others are still checked.
mkdir bad
printf 'import torch\nx = "caf\xe9"\ntorch.cuda.synchronize()\n' > bad/latin1.py
printf 'import torch\x00\x01\x02' > bad/binary.py
cp bad/latin1.py bad/latin1.orig
expect_exit 1 "$DEVPORT" fix bad
contains "$T/err" "latin1.py:2:9: not valid UTF-8"
contains "$T/err" "binary.py: binary file"
cmp -s bad/latin1.py bad/latin1.orig && ok || bad "non-UTF-8 file was written"

# Standard input.
printf 'import torch\ntorch.cuda.synchronize()\n' > stdin.py
expect_exit 1 "$DEVPORT" check --stdin-filename pkg/mod.py - < stdin.py; contains "$T/out" "pkg/mod.py:2:1: warning:"
expect_exit 0 "$DEVPORT" fix - < stdin.py; contains "$T/out" "torch.accelerator.synchronize()"
expect_exit 1 "$DEVPORT" fix --diff - < stdin.py; contains "$T/out" "+torch.accelerator.synchronize()"

# .gitignore and --exclude.
mkdir -p repo/.git repo/gen repo/src
printf 'gen/\n' > repo/.gitignore
printf 'import torch\ntorch.cuda.synchronize()\n' > repo/gen/a.py
printf 'import torch\ntorch.cuda.synchronize()\n' > repo/src/b.py
expect_exit 1 "$DEVPORT" check --format json repo
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [x["path"] for x in d["diagnostics"]]==["repo/src/b.py"], d' "$T/out" && ok || bad "gitignore not honoured"
expect_exit 0 "$DEVPORT" check --exclude src repo

# .devport.yaml, found upward from each file; --config overrides.
mkdir -p cfg/pkg/tests cfg/gen
cat > cfg/.devport.yaml <<'YAML'
target-torch: "2.6"
ignore: [cuda-device-check]
exclude: ["gen/"]
per-file-ignores:
  "pkg/tests/**": [device-placement]
device-expression: self.device
YAML
printf 'import torch\ntorch.cuda.set_device(r)\nx = t.cuda()\n' > cfg/pkg/a.py
printf 'import torch\nx = t.cuda()\nok = x.device.type == "cuda"\n' > cfg/pkg/tests/test_a.py
printf 'import torch\ntorch.cuda.synchronize()\n' > cfg/gen/g.py
expect_exit 1 "$DEVPORT" fix --diff cfg
contains "$T/out" "+torch.accelerator.set_device_idx(r)"
contains "$T/out" "+x = t.to(device=self.device)"
grep -q "g.py" "$T/out" && bad "config exclude ignored" || ok
grep -q "test_a.py" "$T/out" && bad "per-file-ignores ignored" || ok
expect_exit 0 "$DEVPORT" check cfg/pkg/tests/test_a.py
expect_exit 1 "$DEVPORT" fix --diff --target-torch 2.7 --device-expression dev cfg/pkg/a.py
contains "$T/out" "+torch.accelerator.set_device_index(r)"
contains "$T/out" "+x = t.to(device=dev)"
printf 'select: [memory]\n' > other.yaml
expect_exit 0 "$DEVPORT" check --config other.yaml cfg/pkg/a.py
expect_exit 2 "$DEVPORT" check --config missing.yaml cfg
printf 'ignore: [no-such-rule]\n' > cfg/pkg/tests/.devport.yaml
expect_exit 2 "$DEVPORT" check cfg; contains "$T/err" "cfg/pkg/tests/.devport.yaml:1:10: unknown rule or category 'no-such-rule'"
printf 'colour: blue\n' > cfg/pkg/tests/.devport.yaml
expect_exit 2 "$DEVPORT" check cfg; contains "$T/err" ".devport.yaml:1:1: unknown key 'colour'"
rm cfg/pkg/tests/.devport.yaml
printf 'import torch\nn = torch.cuda.device_count()  # devport: ignore[cuda-devcount]\n' > cfg/pkg/typo.py
expect_exit 1 "$DEVPORT" check cfg/pkg/typo.py; contains "$T/out" "unknown rule 'cuda-devcount'"

# --baseline: check reports only what the baseline does not have, whatever moved.
mkdir -p base/sub
printf 'import torch\n\ntorch.cuda.set_device(rank)\nok = x.device.type == "cuda"\n' > base/a.py
printf 'import torch\ny = x.cuda()\ny = x.cuda()\n' > base/sub/b.py
expect_exit 1 "$DEVPORT" check --format json base; cp "$T/out" old.json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert all(len(x["fingerprint"]) == 18 for x in d["diagnostics"]), d' old.json && ok || bad "json fingerprints"
printf 'import os\nimport torch\n\n\ntorch.cuda.set_device(rank)\nok = x.device.type == "cuda"\n' > base/a.py
expect_exit 0 "$DEVPORT" check --baseline old.json base; contains "$T/err" "4 findings known from the baseline old.json not reported"
printf 'import torch\ny = x.cuda()\ny = x.cuda()\ny = x.cuda()\n' > base/sub/b.py
expect_exit 1 "$DEVPORT" check --baseline old.json base
contains "$T/out" "base/sub/b.py:4:"
contains "$T/out" "Found 1 finding in 2 files"
grep -q "b.py:2:" "$T/out" && bad "a known finding was reported" || ok
expect_exit 1 "$DEVPORT" check --quiet --baseline old.json base; [ ! -s "$T/err" ] && ok || bad "--quiet printed: $(cat "$T/err")"
expect_exit 1 "$DEVPORT" check --baseline old.json - < base/sub/b.py
expect_exit 0 "$DEVPORT" check --baseline old.json --stdin-filename base/a.py - < base/a.py
printf '{"diagnostics": [{"rule": "r", "path": "a.py", "line": 1}]}' > nofp.json
expect_exit 2 "$DEVPORT" check --baseline nofp.json base; contains "$T/err" "nofp.json: diagnostics[0]: no \"fingerprint\""
printf '{"diagnostics": [' > broken.json
expect_exit 2 "$DEVPORT" check --baseline broken.json base; contains "$T/err" "broken.json: not valid JSON"
expect_exit 2 "$DEVPORT" check --baseline missing.json base; contains "$T/err" "missing.json: cannot read"
# The files are collected while the rules and the baseline load: their error still comes
# first, and alone.
expect_exit 2 "$DEVPORT" check --baseline missing.json no/such/file.py
contains "$T/err" "missing.json: cannot read"
grep -q "no/such/file.py" "$T/err" && bad "the missing file was reported too" || ok
expect_exit 2 "$DEVPORT" fix --baseline old.json base; contains "$T/err" "--baseline is for check and report"

# report: a self-contained HTML page, written atomically; the same whatever the thread count.
expect_exit 0 "$DEVPORT" report base -o report.html; contains "$T/err" "devport: wrote report.html"
contains report.html "<!DOCTYPE html>"
contains report.html "<svg id=\"chart\""
grep -q -E '<link|src=|https?://' report.html && bad "report.html refers to something outside it" || ok
[ -z "$(ls -A . | grep devport-)" ] && ok || bad "temp files left: $(ls -A .)"
expect_exit 0 "$DEVPORT" report --threads 1 -o t1.html proj cfg base
expect_exit 0 "$DEVPORT" report --threads 4 -o t4.html proj cfg base
cmp -s t1.html t4.html && ok || bad "report differs between --threads 1 and 4"
expect_exit 0 "$DEVPORT" report --quiet -o - base; contains "$T/out" "</html>"; [ ! -s "$T/err" ] && ok || bad "report -q printed"
expect_exit 0 "$DEVPORT" report --baseline old.json -o trend.html base; contains trend.html "compared with <code>old.json</code>"
expect_exit 0 "$DEVPORT" report --docs-url https://example.org/rules/ -o linked.html base
contains linked.html 'href="https://example.org/rules/cuda-device-check.md"'
expect_exit 1 "$DEVPORT" report -o withbad.html bad; contains "$T/err" "devport: error: bad/"
contains withbad.html "could not be checked"
expect_exit 2 "$DEVPORT" report -o no/such/dir/r.html base; contains "$T/err" "no/such/dir/r.html: cannot write the report"
[ ! -e no ] && ok || bad "report created a directory"
expect_exit 2 "$DEVPORT" report does-not-exist.py; contains "$T/err" "does-not-exist.py"
expect_exit 2 "$DEVPORT" report --format json base
expect_exit 2 "$DEVPORT" report - < stdin.py
expect_exit 2 "$DEVPORT" check -o x.html base; contains "$T/err" "unknown option '-o'"

# The progress bar: never on a pipe; on a terminal, not for a run under a second.
expect_exit 1 "$DEVPORT" check base; grep -q "files," "$T/err" && bad "progress on a pipe" || ok
if command -v script >/dev/null; then
  script -qec "'$DEVPORT' check base" /dev/null > tty.out 2>&1
  grep -q "files, " tty.out && bad "progress bar drawn for a short run: $(cat -v tty.out)" || ok
  contains tty.out "Found 5 findings"
fi

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
