#!/usr/bin/env bash
# run.sh: devport against a plain text search (`rg -l`) and a generic AST matcher (ast-grep)
# over the same files, as markdown tables: wall time, CPU time (user+sys), MiB/s, peak RSS,
# each the median of RUNS runs, and the ratios devport/rg and ast-grep/devport (issue 11's
# targets). Not part of CI; docs/benchmarks.md tells how to read it.
#
#   bench/run.sh [--devport BIN]... [--corpus DIR] [SCENARIO...]
#
# Scenarios (default: all four, in this order):
#   python  PyTorch 2.6's *.py and *.pyi files (3,693): `rg -l`, ast-grep (8 rules, bench/ast-grep),
#           `devport check --format json` and `devport fix --diff --unsafe-fixes`
#   cpp     its C++ files (the extensions devport reads: *.cpp *.cc *.cxx *.cu *.cuh *.h *.hh
#           *.hpp ...; 4,491): `rg -l` and `devport check --format json --cpp-engine lexical`
#   small   SMALL_FILES (default 100,000) generated Python files of a few lines each, one in ten
#           with a finding, in a temp dir: `rg -l` and `devport check` over that directory
#   big     one Python file of BIG_MB MiB (default 50), the corpus's .py files concatenated:
#           `rg -c` (counts the matching lines, so reads the whole file) and `devport check`
# python and cpp give every tool the same file list (paths relative to the corpus, as arguments);
# small gives them the directory (100,000 paths exceed the argument limit), which holds nothing
# else. rg searches for `-e cuda -e nccl -e CUDA` everywhere: the floor, a text search that
# only lists the files (reading a file up to its first match, or all of it when none).
#
# --devport BIN   the devport binary (default: build/devport of this tree); repeat it to compare
#                 builds (before/after a change): the tables name them devport#1, devport#2, ...
# --corpus DIR    PyTorch's source tree (default: $DEVPORT_CORPUS, else /tmp/pytorch-src); when
#                 missing, ../shared/corpus/get-pytorch-source.sh (next to this repository;
#                 $GET_CORPUS names another copy) downloads it there (python, cpp, big need it)
#
# ast-grep is the version pinned in bench/package.json (@ast-grep/cli, bench/package-lock.json),
# installed by `npm ci --ignore-scripts` into bench/node_modules when missing or another version,
# and run as the platform package's binary (no install script runs); $AST_GREP names another
# binary instead.
#
# Runs are interleaved (run 1 of every tool, then run 2, ...) so that noise from other work on
# the machine hits all tools alike; the page cache is warmed first. Each run's output goes to a
# file in a temp dir, removed on exit with the generated files. Exit status 1 (findings, or no
# match) is not an error; 2 or more stops the script.
#
# Environment: RUNS (default 3), SMALL_FILES, BIG_MB, AST_GREP, DEVPORT_CORPUS, GET_CORPUS.
# Needs (Debian bookworm): bash, coreutils, findutils, gawk or mawk, python3, ripgrep
# (`rg`), time (`/usr/bin/time`), npm (ast-grep; python scenario only), and for a missing
# corpus what get-pytorch-source.sh needs (apt-get, tar, network).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(dirname "$here")
RUNS=${RUNS:-3}
SMALL_FILES=${SMALL_FILES:-100000}
BIG_MB=${BIG_MB:-50}
for v in RUNS SMALL_FILES BIG_MB; do
  case "${!v}" in ''|*[!0-9]*|0) echo "$v must be a positive integer" >&2; exit 2 ;; esac
done

usage() { sed -n '7p' "${BASH_SOURCE[0]}" | sed 's/^# *//' >&2; exit 2; }
devports=()
CORPUS=${DEVPORT_CORPUS:-/tmp/pytorch-src}
scenarios=()
while [ $# -gt 0 ]; do
  case "$1" in
    --devport) [ $# -ge 2 ] || usage; devports+=("$2"); shift 2 ;;
    --corpus) [ $# -ge 2 ] || usage; CORPUS=$2; shift 2 ;;
    python|cpp|small|big) scenarios+=("$1"); shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument: $1" >&2; usage ;;
  esac
done
[ ${#scenarios[@]} -gt 0 ] || scenarios=(python cpp small big)
[ ${#devports[@]} -gt 0 ] || devports=("$repo/build/devport")
for i in "${!devports[@]}"; do
  d=${devports[$i]}
  [ -f "$d" ] && [ -x "$d" ] || { echo "not an executable file: $d (build it: scripts/bootstrap.sh)" >&2; exit 2; }
  devports[$i]=$(realpath "$d")
done
command -v rg > /dev/null || { echo "rg not found: apt-get install ripgrep" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time not found: apt-get install time" >&2; exit 2; }
command -v python3 > /dev/null || { echo "python3 not found: apt-get install python3" >&2; exit 2; }

tmp=$(mktemp -d /tmp/devport-bench.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

needs_corpus() {
  for s in "${scenarios[@]}"; do
    [ "$s" = small ] || return 0
  done
  return 1
}
if needs_corpus && [ ! -d "$CORPUS/torch" ]; then
  get=${GET_CORPUS:-$repo/../shared/corpus/get-pytorch-source.sh}
  [ -f "$get" ] || { echo "no corpus at $CORPUS and no $get to fetch it (set GET_CORPUS)" >&2; exit 2; }
  bash "$get" "$CORPUS" >&2
fi
[ -d "$CORPUS" ] && CORPUS=$(realpath "$CORPUS")

# ast-grep: the pinned version, installed on first use.
ast_grep() {
  if [ -n "${AST_GREP:-}" ]; then
    echo "$AST_GREP"
    return
  fi
  local want plat bin
  want=$(sed -n 's/^ *"@ast-grep\/cli": *"\([^"]*\)".*/\1/p' "$here/package.json")
  case "$(uname -m)" in
    x86_64) plat=linux-x64-gnu ;;
    aarch64) plat=linux-arm64-gnu ;;
    *) echo "no @ast-grep/cli package for $(uname -m)" >&2; return 1 ;;
  esac
  bin=$here/node_modules/@ast-grep/cli-$plat/ast-grep
  if [ ! -x "$bin" ] || [ "$("$bin" --version 2>/dev/null)" != "ast-grep $want" ]; then
    command -v npm > /dev/null || { echo "npm not found: apt-get install npm (or set AST_GREP)" >&2; return 1; }
    echo "installing ast-grep $want into bench/node_modules (npm ci)" >&2
    (cd "$here" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) >&2
  fi
  [ -x "$bin" ] || { echo "npm ci did not install $bin" >&2; return 1; }
  echo "$bin"
}

# The tools of one scenario: a label, a kind (how to describe its output) and a command line
# (words quoted with printf %q, then "${FILES[@]}" or a directory; run with eval in $workdir).
labels=() kinds=() cmds=()
tool() {  # tool LABEL KIND COMMAND
  labels+=("$1")
  kinds+=("$2")
  cmds+=("$3")
}
q() { printf '%q ' "$@"; }
RG_WORDS=(-e cuda -e nccl -e CUDA)

describe() {  # describe KIND OUTPUT: what the first run printed, in a few words
  case "$1" in
    rg) echo "$(wc -l < "$2") files listed" ;;
    rg-count) echo "$(cat "$2") matching lines" ;;
    ast-grep) echo "$(wc -l < "$2") matches" ;;
    check) python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print("%d findings in %d files, %d errors" % (len(d["diagnostics"]), len({x["path"] for x in d["diagnostics"]}), len(d["summary"]["errors"])))' "$2" ;;
    diff) echo "$(grep -c '^+++ ' "$2" || true) files in the diff, $(wc -c < "$2") bytes" ;;
  esac
}

median() {  # median of the numbers in file $1, one a line
  sort -g "$1" | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# timed DIR COMMAND: runs COMMAND in DIR under /usr/bin/time (CPU and peak RSS into $tmp/time,
# 10 ms and 1 KiB resolution), its output in $tmp/out and $tmp/err; sets rc and wall (seconds,
# by the shell's microsecond clock around it: /usr/bin/time's own rounds to 10 ms, a third of
# `rg -l`'s time over the C++ tree).
timed() {
  local t0=$EPOCHREALTIME
  set +e
  (cd "$1" && eval "/usr/bin/time -f '%e %U %S %M' -o \"\$tmp/time\" $2") > "$tmp/out" 2> "$tmp/err"
  rc=$?
  set -e
  wall=$(awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.4f", b - a }')
}

# measure TITLE DIR BYTES: runs the tools (in DIR), RUNS times interleaved, and prints the table.
measure() {
  local title=$1 workdir=$2 bytes=$3 run i rc wall user sys rss
  rm -f "$tmp"/wall.* "$tmp"/cpu.* "$tmp"/rss.* "$tmp"/note.* "$tmp"/base
  for ((run = 1; run <= RUNS; run++)); do
    # What running a command this way costs by itself (fork, cd, /usr/bin/time): taken off
    # every tool's wall time below.
    timed "$workdir" true
    echo "$wall" >> "$tmp/base"
    for i in "${!cmds[@]}"; do
      timed "$workdir" "${cmds[$i]}"
      if [ "$rc" -gt 1 ]; then
        echo "${labels[$i]}: exit $rc" >&2
        tail -n 20 "$tmp/err" >&2
        exit 1
      fi
      # /usr/bin/time writes "Command exited with non-zero status N" first when rc != 0.
      read -r _ user sys rss < <(tail -n 1 "$tmp/time")
      echo "$wall" >> "$tmp/wall.$i"
      awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f\n", u + s }' >> "$tmp/cpu.$i"
      awk -v r="$rss" 'BEGIN { printf "%.1f\n", r / 1024 }' >> "$tmp/rss.$i"
      [ "$run" -gt 1 ] || echo "exit $rc, $(describe "${kinds[$i]}" "$tmp/out")" > "$tmp/note.$i"
    done
    echo "$title: run $run of $RUNS done" >&2
  done

  local rg_wall="" ag_wall="" w per_rg vs_ag base
  base=$(median "$tmp/base")
  # A tool's wall: the median of its runs less the median cost of running a command.
  wall_of() { awk -v w="$(median "$tmp/wall.$1")" -v b="$base" 'BEGIN { printf "%.3f", w - b }'; }
  for i in "${!cmds[@]}"; do
    case "${kinds[$i]}" in
      rg|rg-count) rg_wall=$(wall_of "$i") ;;
      ast-grep) ag_wall=$(wall_of "$i") ;;
    esac
  done
  echo
  echo "### $title"
  echo
  echo "$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1048576 }') MiB, $(nproc) cores, median of $RUNS runs, interleaved;" \
       "wall less $(awk -v b="$base" 'BEGIN { printf "%.1f", b * 1000 }') ms for starting a command"
  echo
  echo "| tool | wall | CPU (user+sys) | MiB/s | peak RSS | devport/rg | ast-grep/devport | first run |"
  echo "|---|---:|---:|---:|---:|---:|---:|---|"
  for i in "${!cmds[@]}"; do
    w=$(wall_of "$i")
    per_rg="" vs_ag=""
    case "${kinds[$i]}" in
      check|diff)
        [ -z "$rg_wall" ] || per_rg=$(awk -v a="$w" -v b="$rg_wall" 'BEGIN { printf "%.1fx", (b > 0 ? a / b : 0) }')
        [ -z "$ag_wall" ] || vs_ag=$(awk -v a="$ag_wall" -v b="$w" 'BEGIN { printf "%.2fx", (b > 0 ? a / b : 0) }') ;;
    esac
    echo "| ${labels[$i]} | $w s | $(median "$tmp/cpu.$i") s" \
         "| $(awk -v b="$bytes" -v w="$w" 'BEGIN { printf "%.1f", (w > 0 ? b / 1048576 / w : 0) }')" \
         "| $(median "$tmp/rss.$i") MiB | $per_rg | $vs_ag | $(cat "$tmp/note.$i") |"
  done
  labels=() kinds=() cmds=()
}

# add_devports KIND SUBCOMMAND-AND-OPTIONS... ARGS: one tool per devport binary
add_devports() {
  local kind=$1 args=$2 n
  shift 2
  for n in "${!devports[@]}"; do
    tool "devport#$((n + 1)) $*" "$kind" "$(q "${devports[$n]}" "$@") $args"
  done
}

FILES=()
list_files() {  # list_files FIND-NAME-EXPRESSION...: FILES = the corpus's matching files, sorted
  mapfile -t FILES < <(cd "$CORPUS" && find . -type f \( "$@" \) -printf '%P\n' | LC_ALL=C sort)
  [ ${#FILES[@]} -gt 0 ] || { echo "no files in $CORPUS for: $*" >&2; exit 2; }
  (cd "$CORPUS" && cat -- "${FILES[@]}") > /dev/null # warm the page cache
}
bytes_of_files() { (cd "$CORPUS" && cat -- "${FILES[@]}") | wc -c; }

scenario_python() {
  list_files -name '*.py' -o -name '*.pyi'
  local ag
  tool "rg -l (text search)" rg "$(q rg -l "${RG_WORDS[@]}") \"\${FILES[@]}\""
  if ag=$(ast_grep); then
    tool "$("$ag" --version) scan (8 rules)" ast-grep \
      "$(q "$ag" scan -c "$here/ast-grep/sgconfig.yml" --json=stream) \"\${FILES[@]}\""
  else
    echo "python: ast-grep left out" >&2
  fi
  add_devports check '"${FILES[@]}"' check --format json
  add_devports diff '"${FILES[@]}"' fix --diff --unsafe-fixes
  measure "python: PyTorch's Python tree, ${#FILES[@]} files" "$CORPUS" "$(bytes_of_files)"
}

scenario_cpp() {
  local e expr=()
  for e in cpp cc cxx c++ cu cuh h hh hpp hxx h++ inl ipp tpp; do
    expr+=(${expr[0]+-o} -iname "*.$e")
  done
  list_files "${expr[@]}"
  tool "rg -l (text search)" rg "$(q rg -l "${RG_WORDS[@]}") \"\${FILES[@]}\""
  add_devports check '"${FILES[@]}"' check --format json --cpp-engine lexical
  measure "cpp: PyTorch's C++ tree, ${#FILES[@]} files, lexical" "$CORPUS" "$(bytes_of_files)"
}

scenario_small() {
  local dir=$tmp/small
  echo "small: writing $SMALL_FILES files into $dir" >&2
  python3 - "$dir" "$SMALL_FILES" <<'PY'
import os, sys
root, count = sys.argv[1], int(sys.argv[2])
plain = "import torch\n\n\ndef step_{n}(x):\n    y = x * {n} + 1\n    return torch.relu(y)\n"
finding = "import torch\n\n\ndef step_{n}(x):\n    y = x.cuda() * {n}\n    return torch.relu(y)\n"
for n in range(count):
    d = os.path.join(root, "d%03d" % (n // 1000))
    if n % 1000 == 0:
        os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "m%06d.py" % n), "w") as f:
        f.write((finding if n % 10 == 0 else plain).format(n=n))
PY
  local bytes
  bytes=$(find "$dir" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }')
  tool "rg -l (text search)" rg "$(q rg -l "${RG_WORDS[@]}" .)"
  add_devports check "." check --format json
  measure "small: $SMALL_FILES generated files, one in ten with a finding" "$dir" "$bytes"
  rm -rf "$dir"
}

scenario_big() {
  list_files -name '*.py'
  local dir=$tmp/big size
  mkdir -p "$dir"
  # Whole files in path order until the size is reached, each ending with a newline.
  size=$(cd "$CORPUS" && printf '%s\0' "${FILES[@]}" | python3 -c '
import sys
limit, size = int(sys.argv[1]) * 1048576, 0
with open(sys.argv[2], "wb") as out:
    for path in sys.stdin.buffer.read().split(b"\0")[:-1]:
        if size >= limit:
            break
        data = open(path, "rb").read()
        if not data.endswith(b"\n"):
            data += b"\n"
        out.write(data)
        size += len(data)
print(size)' "$BIG_MB" "$dir/big.py")
  # rg -l would stop at the first match, a few bytes in: -c reads the whole file.
  tool "rg -c (text search, all lines)" rg-count "$(q rg -c "${RG_WORDS[@]}" big.py)"
  add_devports check "big.py" check --format json
  measure "big: one Python file of $BIG_MB MiB (PyTorch's .py files concatenated)" "$dir" "$size"
  rm -rf "$dir"
}

echo "devport/rg: wall time of devport over rg's; ast-grep/devport: ast-grep's over devport's"
for s in "${scenarios[@]}"; do
  "scenario_$s"
done
echo
for n in "${!devports[@]}"; do
  echo "devport#$((n + 1)): ${devports[$n]} ($("${devports[$n]}" --version 2>/dev/null || echo "no --version"))"
done
! needs_corpus || echo "corpus: $CORPUS"
