#!/usr/bin/env bash
# The lint-gate outputs of the real binary: --format sarif and github (paths relative to the
# repository or --root, escaping, a file outside the root), --statistics (text and JSON, the JSON
# otherwise unchanged), --diff-base, and the same output whatever the thread count.
#   gate.sh DEVPORT_BINARY
set -u
DEVPORT=$(realpath "$1")
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d /tmp/devport-gate.XXXXXX)
trap 'rm -rf "$T"' EXIT
cd "$T"
. "$HERE/harness.sh"

export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
git init -q repo
mkdir -p "repo/my dir" repo/pkg
printf 'import torch\n\ntorch.cuda.set_device(rank)\nn = torch.cuda.device_count()\n' > "repo/my dir/a#1,b:c.py"
printf 'import torch\ntorch.backends.cudnn.benchmark = True\nx = torch.cuda.current_stream()\n' > repo/pkg/b.py
git -C repo add -A && git -C repo commit -qm base

# GitHub annotations: paths relative to the repository's top level, even from a subdirectory.
cd repo/pkg
expect_exit 1 "$DEVPORT" check --format github .. 
contains "$T/out" "::warning file=my dir/a#1%2Cb%3Ac.py,line=3,col=1,endLine=3,endColumn=28,title=devport (cuda-set-device)::"
contains "$T/out" "::warning file=pkg/b.py,line=3,"
contains "$T/out" "%0Afix (unsafe): torch.accelerator.current_stream()"
[ "$(grep -c '^::' "$T/out")" = 3 ] && ok || bad "want 3 annotations: $(cat "$T/out")"
cd "$T"
# --root moves the base; a file outside it is an error (exit 2), not a wrong path.
expect_exit 1 "$DEVPORT" check --format github --root repo/pkg repo/pkg/b.py
contains "$T/out" "::warning file=b.py,line=3,"
expect_exit 2 "$DEVPORT" check --format github --root repo/pkg repo
contains "$T/err" "outside the root"
printf 'import torch\ntorch.cuda.synchronize()\n' > outside.py
(cd repo && "$DEVPORT" check --format sarif ../outside.py pkg/b.py >"$T/out" 2>"$T/err"; echo $? >"$T/rc")
[ "$(cat "$T/rc")" = 2 ] && ok || bad "a file outside the repository exited $(cat "$T/rc")"
contains "$T/err" "outside.py: outside the root $T/repo"
expect_exit 2 "$DEVPORT" check --format json --root repo repo; contains "$T/err" "--root is for"

# SARIF: relative, percent-encoded URIs under %SRCROOT%, the top level of the current
# directory's repository.
cd "repo/my dir"
expect_exit 1 "$DEVPORT" check --format sarif ..
cd "$T"
python3 - "$T/out" "$T/repo" <<'PY' && ok || bad "sarif locations"
import json, sys, urllib.parse
run = json.load(open(sys.argv[1]))["runs"][0]
assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == "file://" + urllib.parse.quote(sys.argv[2]) + "/", run["originalUriBaseIds"]
uris = [r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in run["results"]]
assert uris == ["my%20dir/a%231%2Cb%3Ac.py"] * 2 + ["pkg/b.py"], uris
PY

# Same output whatever the thread count.
for f in sarif github json; do
  "$DEVPORT" check --format $f --threads 1 repo > "$T/t1" 2>&1
  "$DEVPORT" check --format $f --threads 4 repo > "$T/t4" 2>&1
  cmp -s "$T/t1" "$T/t4" && ok || bad "--format $f differs between --threads 1 and 4"
done

# --statistics: the text table instead of the findings; JSON gains "statistics" only.
expect_exit 1 "$DEVPORT" check --statistics repo
contains "$T/out" "rule                 category        findings  safe  unsafe  report-only  kept"
contains "$T/out" "cuda-current-stream  device-runtime         1     0       1            0     0"
contains "$T/out" "keep-cudnn"
contains "$T/out" "Found 3 findings in 2 files"
lacks "$T/out" "^~~~"
"$DEVPORT" check --format json repo > plain.json
expect_exit 1 "$DEVPORT" check --format json --statistics repo
python3 - plain.json "$T/out" <<'PY' && ok || bad "json statistics"
import json, sys
plain, stats = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
s = stats.pop("statistics")
assert plain == stats, "JSON changed beyond 'statistics'"
assert {r["rule"]: (r["findings"], r["fixable_safe"], r["fixable_unsafe"], r["report_only"], r["kept"]) for r in s} == {
    "cuda-set-device": (1, 1, 0, 0, 0), "cuda-device-count": (1, 1, 0, 0, 0),
    "cuda-current-stream": (1, 0, 1, 0, 0), "keep-cudnn": (0, 0, 0, 0, 1)}, s
PY

# --diff-base: only the lines changed since REF (staged or not) and untracked files.
cd repo
printf 'import torch\ntorch.backends.cudnn.benchmark = True\nx = torch.cuda.current_stream()\ny = torch.cuda.is_available()\n' > pkg/b.py
printf 'import torch\ntorch.cuda.synchronize()\n' > pkg/new.py
expect_exit 1 "$DEVPORT" check --diff-base HEAD .
contains "$T/out" "pkg/b.py:4:5"
contains "$T/out" "pkg/new.py:2:1"
lacks "$T/out" "pkg/b.py:3:"
lacks "$T/out" "a#1,b:c.py"
contains "$T/out" "Found 2 findings in 3 files"
git add pkg/b.py
expect_exit 1 "$DEVPORT" check --diff-base HEAD pkg/b.py; contains "$T/out" "Found 1 finding in 1 file"
git commit -qm more && rm pkg/new.py
expect_exit 0 "$DEVPORT" check --diff-base HEAD .
expect_exit 1 "$DEVPORT" check --diff-base HEAD~1 --format json .
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [x["line"] for x in d["diagnostics"]]==[4] and d["summary"]["findings"]==1, d' "$T/out" && ok || bad "diff-base json"
expect_exit 2 "$DEVPORT" check --diff-base no-such-ref .; contains "$T/err" "unknown revision 'no-such-ref'"
expect_exit 2 "$DEVPORT" fix --diff-base HEAD .; contains "$T/err" "--diff-base is for check only"
cd "$T"
mkdir nogit && cp outside.py nogit/
(cd nogit && GIT_CEILING_DIRECTORIES="$T" "$DEVPORT" check --diff-base HEAD . >"$T/out" 2>"$T/err"; echo $? > "$T/rc")
[ "$(cat "$T/rc")" = 2 ] && ok || bad "--diff-base outside a repository exited $(cat "$T/rc")"
contains "$T/err" "not in a git repository"

summary
