#!/usr/bin/env bash
# compare.sh: devport against a plain text search and a generic AST matcher over the same corpus
# (by default PyTorch 2.6's release source, ../shared/corpus/get-pytorch-source.sh): wall time,
# CPU time (user+sys) and peak RSS, the median of RUNS runs each, as a markdown table.
#
#   bench/compare.sh [CORPUS] DEVPORT [DEVPORT2 ...]
#       CORPUS defaults to $DEVPORT_CORPUS or /tmp/pytorch-src; the first argument is taken as
#       the corpus when it is a directory. Each DEVPORT is a devport binary (two or more: compare
#       builds, e.g. before and after a change); the table names them devport#1, devport#2, ...
#       in argument order, with their paths below it.
#
# Tools, each given the same CORPUS directory argument:
#   rg        `rg -l -t py -e cuda -e nccl -e CUDA CORPUS`, when rg is on PATH: the floor, a text
#             search that only lists the files (-t py: *.py and *.pyi, the files devport reads)
#   ast-grep  `ast-grep scan -c bench/ast-grep/sgconfig.yml --json=stream CORPUS`: 8 rules close to
#             devport's main patterns (bench/ast-grep/rules), when a binary is found: $AST_GREP,
#             else ast-grep on PATH, else /tmp/astgrep/node_modules/.bin/ast-grep (npm install
#             @ast-grep/cli there). `sg` is not looked for: on Debian it is shadow's sg(1).
#   devport   for each DEVPORT: `check --format json CORPUS` and `fix --diff --unsafe-fixes CORPUS`
#             (exit 1, findings, is not an error)
# Output of every run goes to a file in a temp dir (removed on exit), not to the terminal.
# Runs are interleaved (run 1 of every tool, then run 2, ...) so that noise from other work on
# the machine hits all tools alike; the page cache is warmed first by reading every .py file.
#
# Environment: RUNS (default 3), AST_GREP (ast-grep binary). Needs /usr/bin/time (Debian
# package `time`), find and awk.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RUNS=${RUNS:-3}
case "$RUNS" in ''|*[!0-9]*|0) echo "RUNS must be a positive integer" >&2; exit 2 ;; esac

CORPUS=${DEVPORT_CORPUS:-/tmp/pytorch-src}
if [ $# -gt 0 ] && [ -d "$1" ]; then
  CORPUS=$1
  shift
fi
if [ $# -eq 0 ]; then
  echo "usage: bench/compare.sh [CORPUS] DEVPORT [DEVPORT2 ...]" >&2
  exit 2
fi
[ -d "$CORPUS" ] || { echo "no corpus at $CORPUS (run ../shared/corpus/get-pytorch-source.sh)" >&2; exit 2; }
CORPUS=$(realpath "$CORPUS")
[ -x /usr/bin/time ] || { echo "/usr/bin/time not found: apt-get install time" >&2; exit 2; }

devports=()
for d in "$@"; do
  if [ ! -f "$d" ] || [ ! -x "$d" ]; then
    echo "not an executable file: $d" >&2
    exit 2
  fi
  devports+=("$(realpath "$d")")
done

tmp=$(mktemp -d /tmp/devport-compare.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# The tools: a label and a command line (words quoted with printf %q, run with eval).
labels=()
cmds=()
add() {  # add LABEL WORD...
  labels+=("$1")
  shift
  cmds+=("$(printf '%q ' "$@")")
}

if command -v rg > /dev/null; then
  add "rg -l (text search)" rg -l -t py -e cuda -e nccl -e CUDA "$CORPUS"
fi

ast_grep=${AST_GREP:-}
if [ -z "$ast_grep" ]; then
  if command -v ast-grep > /dev/null; then
    ast_grep=$(command -v ast-grep)
  elif [ -x /tmp/astgrep/node_modules/.bin/ast-grep ]; then
    ast_grep=/tmp/astgrep/node_modules/.bin/ast-grep
  fi
fi
if [ -n "$ast_grep" ]; then
  ag_version=$("$ast_grep" --version 2>/dev/null | head -n 1 || true)
  case "$ag_version" in
    ast-grep*) add "$ag_version scan (8 rules)" "$ast_grep" scan -c "$here/ast-grep/sgconfig.yml" --json=stream "$CORPUS" ;;
    *) echo "skipping ast-grep: $ast_grep --version says '$ag_version'" >&2 ;;
  esac
fi

for n in "${!devports[@]}"; do
  d=${devports[$n]}
  add "devport#$((n + 1)) check --format json" "$d" check --format json "$CORPUS"
  add "devport#$((n + 1)) fix --diff --unsafe-fixes" "$d" fix --diff --unsafe-fixes "$CORPUS"
done

nfiles=$(find "$CORPUS" -name '*.py' -type f | wc -l)
bytes=$(find "$CORPUS" -name '*.py' -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
# Warm the page cache so that the first tool does not pay for the disk.
find "$CORPUS" -name '*.py' -type f -exec cat {} + > /dev/null

for ((run = 1; run <= RUNS; run++)); do
  for i in "${!cmds[@]}"; do
    set +e
    eval "/usr/bin/time -f '%e %U %S %M' -o \"\$tmp/time\" ${cmds[$i]}" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    set -e
    # rg: 1 means no match; ast-grep scan: 1 means error-severity findings; devport: 1 findings.
    if [ "$rc" -gt 1 ]; then
      echo "${labels[$i]}: exit $rc" >&2
      tail -n 20 "$tmp/err" >&2
      exit 1
    fi
    # /usr/bin/time writes "Command exited with non-zero status N" first when rc != 0.
    read -r wall user sys rss < <(tail -n 1 "$tmp/time")
    echo "$wall" >> "$tmp/wall.$i"
    echo "$user $sys" | awk '{ printf "%.2f\n", $1 + $2 }' >> "$tmp/cpu.$i"
    echo "$rss" | awk '{ printf "%.1f\n", $1 / 1024 }' >> "$tmp/rss.$i"
    if [ "$run" -eq 1 ]; then
      echo "exit $rc, $(wc -c < "$tmp/out") bytes of output" > "$tmp/note.$i"
    fi
  done
  echo "run $run of $RUNS done" >&2
done

median() {  # median of the numbers in file $1, one a line
  sort -g "$1" | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

echo
echo "corpus: $CORPUS ($nfiles .py files, $(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1048576 }') MiB), $(nproc) cores, median of $RUNS runs, interleaved"
echo
echo "| tool | wall (median of $RUNS) | CPU (user+sys) | peak RSS | first run |"
echo "|---|---:|---:|---:|---|"
for i in "${!cmds[@]}"; do
  echo "| ${labels[$i]} | $(median "$tmp/wall.$i") s | $(median "$tmp/cpu.$i") s | $(median "$tmp/rss.$i") MiB | $(cat "$tmp/note.$i") |"
done
echo
for n in "${!devports[@]}"; do
  echo "devport#$((n + 1)): ${devports[$n]} ($("${devports[$n]}" --version 2>/dev/null || echo "no --version"))"
done
