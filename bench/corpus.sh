#!/usr/bin/env bash
# corpus.sh: devport on PyTorch 2.6's release source (../shared/corpus/get-pytorch-source.sh):
# wall time, CPU time, peak memory and findings per rule, for `check` over torch/ and test/, and
# a `fix` run on a scratch copy (files changed, all still compiling, second run idempotent).
#
#   bench/corpus.sh [DEVPORT] [CORPUS]     defaults: build/devport, /tmp/pytorch-src
set -euo pipefail
DEVPORT=$(realpath "${1:-build/devport}")
CORPUS=${2:-${DEVPORT_CORPUS:-/tmp/pytorch-src}}
[ -d "$CORPUS/torch" ] || { echo "no corpus at $CORPUS (run ../shared/corpus/get-pytorch-source.sh)" >&2; exit 2; }
out=$(mktemp -d /tmp/devport-bench.XXXXXX)
trap 'rm -rf "$out"' EXIT

for tree in torch test; do
  n=$(find "$CORPUS/$tree" -name '*.py' | wc -l)
  set +e
  /usr/bin/time -f '%e %U %S %M' -o "$out/time" "$DEVPORT" check --format json "$CORPUS/$tree" > "$out/$tree.json"
  rc=$?
  set -e
  read -r wall user sys rss < <(tail -n 1 "$out/time")
  echo "check $tree/: $n .py files, exit $rc, wall ${wall}s, cpu $(echo "$user + $sys" | bc)s, peak RSS $((rss / 1024)) MiB"
  python3 - "$out/$tree.json" <<'PY'
import collections, json, sys
d = json.load(open(sys.argv[1]))
c = collections.Counter(x["rule"] for x in d["diagnostics"])
f = collections.Counter(x["rule"] for x in d["diagnostics"] if x["fix"])
files = len({x["path"] for x in d["diagnostics"]})
print(f"  {sum(c.values())} findings in {files} files, errors: {len(d['summary']['errors'])}")
for rule, n in sorted(c.items(), key=lambda kv: -kv[1]):
    print(f"  {rule:28} {n:6}  ({f[rule]} with a fix)")
PY
done

# fix on a scratch copy of test/: every changed file must still compile, and a second run
# must change nothing.
cp -r "$CORPUS/test" "$out/test-copy"
set +e
/usr/bin/time -f '%e' -o "$out/time" "$DEVPORT" fix --unsafe-fixes "$out/test-copy" > "$out/fix.txt" 2> "$out/fix.err"
set -e
echo "fix --unsafe-fixes test/: $(tail -n 1 "$out/fix.txt") wall $(tail -n 1 "$out/time")s"
changed=$(cd "$out" && diff -rq "$CORPUS/test" test-copy | awk '{print $4}' | grep '\.py$' || true)
nchanged=$(echo "$changed" | grep -c . || true)
bad=0
for f in $changed; do python3 -m py_compile "$out/$f" 2>/dev/null || { bad=$((bad + 1)); echo "  does not compile: $f"; }; done
echo "  $nchanged files changed, $bad do not compile"
before=$(cd "$out/test-copy" && find . -name '*.py' -exec sha256sum {} + | sort | sha256sum)
"$DEVPORT" fix --unsafe-fixes "$out/test-copy" > /dev/null 2>&1 || true
after=$(cd "$out/test-copy" && find . -name '*.py' -exec sha256sum {} + | sort | sha256sum)
[ "$before" = "$after" ] && echo "  second fix: no change" || echo "  second fix: CHANGED FILES"
