#!/usr/bin/env bash
# Input that comes with a repository must not take devport down or make it lie: YAML nesting and
# alias bombs, devices and FIFOs named as rule or config files, regex bombs in `where:`, deep and
# long code, control characters in names and lines, non-UTF-8 names in JSON, lone CRs, a BOM,
# and the `fix -` filter contract. docs/cli.md ("Limits") is what this checks.
#   limits.sh DEVPORT_BINARY
# LIMITS_SCALE=N divides the sizes of the code inputs by N (the sanitizer build uses 10: its
# frames and checks make the full sizes take minutes; the release build runs them whole).
set -u
DEVPORT=$(realpath "$1")
S=${LIMITS_SCALE:-1}
DEPTH=$((100000 / S))
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d /tmp/devport-limits.XXXXXX)
trap 'rm -rf "$T"' EXIT
cd "$T"
. "$HERE/harness.sh"

printf 'import torch\ntorch.cuda.synchronize()\n' > a.py

# --- YAML: nesting past the limit is refused before the parser recurses, with file:line:col ----
python3 -c "n=300000; print('select: ' + '{a: '*n + 'b' + '}'*n)" > .devport.yaml
expect_exit 2 "$DEVPORT" check a.py
contains "$T/err" ".devport.yaml:1:"
contains "$T/err" "nested deeper than 64 levels"
python3 -c "n=300000; print('select:\n' + '- '*n + 'x')" > .devport.yaml
expect_exit 2 "$DEVPORT" check a.py
contains "$T/err" "nested deeper than 64 levels"
python3 -c "n=100000; print('select: ' + '['*n + ']'*n)" > .devport.yaml
expect_exit 2 "$DEVPORT" check a.py
contains "$T/err" "nested deeper than 64 levels"
# 60 levels are fine as YAML (and then wrong as a config: a list of strings is expected).
python3 -c "n=60; print('select: ' + '['*n + 'x' + ']'*n)" > .devport.yaml
expect_exit 2 "$DEVPORT" check a.py
contains "$T/err" "'select' must be a string"
# An alias bomb (billion laughs): aliases are not expanded, they are refused.
python3 - <<'EOF'
lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
lines += [f'a{i}: &a{i} [' + ','.join([f'*a{i-1}'] * 9) + ']' for i in range(1, 10)]
lines.append('select: *a9')
open('.devport.yaml', 'w').write('\n'.join(lines) + '\n')
EOF
expect_exit 2 "$DEVPORT" check a.py
contains "$T/err" "YAML aliases (*a9) are not supported"
# Every key is optional: an empty or comment-only config is no error.
: > .devport.yaml
expect_exit 1 "$DEVPORT" check a.py
printf '# nothing here yet\n' > .devport.yaml
expect_exit 1 "$DEVPORT" check a.py
contains "$T/out" "Found 1 finding in 1 file"

# --- Rule and config paths that are not regular files: refused, never read ------------------------
printf 'rules: [/dev/zero]\n' > .devport.yaml
expect_exit 2 timeout 20 "$DEVPORT" check a.py
contains "$T/err" "/dev/zero: cannot read the rule file: not a regular file (a character device)"
mkfifo fifo.yaml
rm .devport.yaml
expect_exit 2 timeout 20 "$DEVPORT" check --config fifo.yaml a.py
contains "$T/err" "fifo.yaml: not a regular file"
expect_exit 2 "$DEVPORT" check --config "$T" a.py
contains "$T/err" "is a directory; --config takes a file"
# A file that is not YAML is not echoed: at most 40 characters of a key.
python3 -c "print('x' * 5000 + 'SECRET: 1')" > notyaml.yaml
expect_exit 2 "$DEVPORT" check --config notyaml.yaml a.py
lacks "$T/err" "SECRET"
# A big rule file is refused by size.
mkdir big && python3 -c "print('# ' + 'x' * (5 << 20))" > big/huge.yaml
printf 'rules: [big]\n' > .devport.yaml
expect_exit 2 "$DEVPORT" check a.py
contains "$T/err" "too large"
# The same rule directory named twice (or a file in it, or a directory below it) is read once.
mkdir -p r/sub
cat > r/my-rule.yaml <<'EOF'
id: my-rule
language: python
category: device-runtime
severity: warning
message: "foo.bar is CUDA-only here"
description: |
  A test rule.
any:
  - foo.bar($X)
EOF
sed 's/my-rule/my-other/' r/my-rule.yaml > r/sub/my-other.yaml
printf 'rules: [r, ./r, r/my-rule.yaml, r/sub]\n' > .devport.yaml
printf 'foo.bar(1)\n' > b.py
expect_exit 1 "$DEVPORT" check b.py
lacks "$T/err" "duplicate rule id"
contains "$T/out" "[my-other]"
# A `where:` regex whose counted repetitions nest: refused, with its place, before compiling.
cat >> r/my-rule.yaml <<'EOF'
where:
  X:
    regex: "((((a{255}){255}){255}){255})"
EOF
expect_exit 2 "$DEVPORT" check b.py
contains "$T/err" "r/my-rule.yaml:12:12: invalid regex"
contains "$T/err" "expand to more than 10000 positions"
# Backtracking-prone regexes run in linear time (LLVM's regex engine does not backtrack).
sed -i 's/regex: .*/regex: "(a|aa)*(a*)*b"/' r/my-rule.yaml
python3 -c "print('foo.bar(\"' + 'a' * (200000 // $S) + '\")')" > c.py
expect_exit 1 timeout 60 "$DEVPORT" check c.py
contains "$T/out" "[my-other]"
lacks "$T/out" "[my-rule]"
rm -rf .devport.yaml r

# --- --select '' is not "all rules" ------------------------------------------------------------
expect_exit 2 "$DEVPORT" check --select '' a.py
contains "$T/err" "option '--select' needs at least one rule id or category"

# --- Deep and long code: no crash, one finding each ------------------------------------------------
python3 -c "n=$DEPTH; print('import torch\nx = ' + '('*n + 'torch.cuda.synchronize()' + ')'*n)" > nest.py
python3 -c "n=$DEPTH; print('import torch\nx = ' + '['*n + 'torch.cuda.synchronize()' + ']'*n)" > nestl.py
python3 -c "n=2*$DEPTH; print('import torch\ny = a' + '.b'*n + '.cuda()')" > chain.py
python3 -c "print('import torch\nx = [' + ', '.join(['\"cuda\"'] * (400000 // $S)) + ']; torch.cuda.synchronize()')" > longline.py
python3 -c "print('import torch\n' + ''.join(' '*i + 'if x:\n' for i in range(2000)) + ' '*2000 + 'torch.cuda.synchronize()')" > indent.py
# The same name assigned 20,000 times (was quadratic: 216 s for 10,000).
N_ASSIGNED=$((20000 / S))
python3 -c "print('import torch\n' + 'x = torch.cuda.device_count()\n' * $N_ASSIGNED)" > assigned.py
for f in nest nestl chain longline indent; do
  expect_exit 1 "$DEVPORT" check --format json $f.py
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['summary']['findings'] == 1, d['summary']" "$T/out" && ok || bad "$f.py: $(head -c 300 "$T/out")"
done
expect_exit 1 "$DEVPORT" check --format json assigned.py
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['summary']['findings'] == $N_ASSIGNED, d['summary']" "$T/out" && ok || bad "assigned.py: $(head -c 300 "$T/out")"
# A symbolic link loop in the tree: reported, the rest checked.
mkdir loop && ln -s ../loop loop/again && cp a.py loop/
expect_exit 1 "$DEVPORT" check loop
contains "$T/out" "Found 1 finding in 1 file"

# --- Text output escapes control characters; JSON keeps non-UTF-8 names byte for byte ------------
mkdir esc && printf 'import torch\nx = torch.cuda.synchronize()  # \033[31mred\n' > "esc/$(printf 'e\033[2Jx.py')"
expect_exit 1 "$DEVPORT" check esc
if grep -q "$(printf '\033')" "$T/out" "$T/err"; then bad "an escape character reached the terminal"; else ok; fi
contains "$T/out" 'e\x1b[2Jx.py:2:5: warning'
contains "$T/out" '# \x1b[31mred'
mkdir latin && cp a.py "latin/$(printf 'n\351.py')" && printf '\377' > "latin/$(printf 'b\351.py')"
expect_exit 1 "$DEVPORT" check --format json latin
python3 - "$T/out" <<'EOF' && ok || bad "json paths: $(cat "$T/out")"
import json, os, sys
d = json.load(open(sys.argv[1]))
paths = [x["path"] for x in d["diagnostics"]]
assert paths == ["latin/n\udce9.py"], paths
assert os.path.exists(os.fsencode(paths[0]))
assert d["summary"]["errors"][0].startswith("latin/b\udce9.py:1:1: not valid UTF-8"), d["summary"]["errors"]
EOF

# --- A BOM is not a column; a lone CR ends a line --------------------------------------------------
printf '\357\273\277torch.cuda.synchronize()\n' > bom.py
expect_exit 1 "$DEVPORT" check bom.py
contains "$T/out" "bom.py:1:1: warning"
printf 'import torch\rx = torch.cuda.synchronize()\rif x:\r    torch.cuda.synchronize()\r' > cr.py
expect_exit 1 "$DEVPORT" check cr.py
contains "$T/out" "cr.py:4:5: warning"
lacks "$T/out" "syntax error"
expect_exit 0 "$DEVPORT" fix cr.py
[ "$(cat cr.py)" = "$(printf 'import torch\rx = torch.accelerator.synchronize()\rif x:\r    torch.accelerator.synchronize()\r')" ] && ok || bad "cr.py: $(od -c cr.py | head)"

# --- `fix -` is a filter: standard output carries code only -----------------------------------------
printf 'import torch\nx = "\351"\ntorch.cuda.synchronize()\n' > latin1.txt
"$DEVPORT" fix - < latin1.txt > "$T/out" 2> "$T/err"; rc=$?
[ "$rc" = 2 ] && ok || bad "fix - on Latin-1 exited $rc, want 2"
cmp -s latin1.txt "$T/out" && ok || bad "fix - did not give its input back unchanged: $(od -c "$T/out" | head -3)"
contains "$T/err" "<stdin>:2:6: not valid UTF-8"
printf 'import torch\ntorch.cuda.synchronize()\nx.cuda()\n' > in.py
"$DEVPORT" fix --format json - < in.py > "$T/out" 2> "$T/err"; rc=$?
[ "$rc" = 0 ] && ok || bad "fix --format json - exited $rc"
contains "$T/out" "torch.accelerator.synchronize()"
lacks "$T/out" '"diagnostics"'
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['summary']['fixes_applied'] == 2, d" "$T/err" && ok || bad "fix --format json - report: $(cat "$T/err")"
expect_exit 2 "$DEVPORT" fix --format sarif - < in.py
contains "$T/err" "its report is text or json"

summary
