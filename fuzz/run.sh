#!/usr/bin/env bash
# run.sh: build the libFuzzer targets (build-fuzz/, -DDEVPORT_FUZZ=ON) and fuzz each for a while.
#
#   fuzz/run.sh SECONDS [TARGET...]
#
# TARGET: python-engine, cpp-lexical, yaml-loaders, lsp (default: all four). Each runs SECONDS
# (libFuzzer -max_total_time) from the seeds of fuzz/make_corpus.py plus the corpus that earlier
# runs kept in build-fuzz/fuzz-corpus/<target>/, and appends "target seconds executions crashed"
# to build-fuzz/fuzz-stats.tsv (the cumulative figures: fuzz/run.sh --stats). A crash leaves its
# input in build-fuzz/fuzz-crashes/<target>/ and the script exits 1 after the other targets ran;
# keep the input in fuzz/regressions/<target>/ (docs/testing.md).
#
# Environment: FUZZ_BUILD_DIR (default build-fuzz), FUZZ_JOBS (build jobs, default 2).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${FUZZ_BUILD_DIR:-build-fuzz}
ALL=(python-engine cpp-lexical yaml-loaders lsp)

if [[ "${1:-}" == --stats ]]; then
  [[ -f "$BUILD/fuzz-stats.tsv" ]] || { echo "no runs yet"; exit 0; }
  awk '{ s[$1] += $2; n[$1] += $3; c[$1] += $4 }
       END { for (t in s) printf "%-14s %6d s %12d executions %d crashes\n", t, s[t], n[t], c[t] }' \
    "$BUILD/fuzz-stats.tsv" | sort
  exit 0
fi
SECONDS_EACH=${1:?usage: fuzz/run.sh SECONDS [TARGET...]}
shift
TARGETS=("$@")
((${#TARGETS[@]})) || TARGETS=("${ALL[@]}")

if [[ ! -f "$BUILD/build.ninja" ]]; then
  cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
    -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -DDEVPORT_FUZZ=ON -DDEVPORT_TESTS=OFF >/dev/null
fi
cmake --build "$BUILD" -j"${FUZZ_JOBS:-2}" --target "${TARGETS[@]/#/fuzz-}"

SEEDS="$BUILD/fuzz-seeds"
python3 fuzz/make_corpus.py "$SEEDS" >/dev/null
status=0
for t in "${TARGETS[@]}"; do
  corpus="$BUILD/fuzz-corpus/$t" crashes="$BUILD/fuzz-crashes/$t"
  mkdir -p "$corpus" "$crashes"
  log="$BUILD/fuzz-$t.log"
  # -timeout: an input that takes 10 s is a hang; -rss_limit_mb: ASan's shadow included.
  rc=0
  "$BUILD/fuzz/fuzz-$t" "$corpus" "$SEEDS/$t" fuzz/regressions/"$t" -max_total_time="$SECONDS_EACH" \
    -timeout=10 -rss_limit_mb=3072 -max_len=65536 -print_final_stats=1 \
    -artifact_prefix="$crashes/" >"$log" 2>&1 || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  crashed=0
  ((rc == 0)) || { crashed=1; status=1; }
  printf '%s\t%s\t%s\t%s\n' "$t" "$SECONDS_EACH" "${execs:-0}" "$crashed" >>"$BUILD/fuzz-stats.tsv"
  echo "fuzz $t: ${execs:-?} executions in ${SECONDS_EACH} s, $([[ $crashed == 1 ]] && echo "CRASHED (see $log, $crashes/)" || echo "no crash")"
  ((rc == 0)) || grep -m5 -E "ERROR: |fuzz invariant violated|SUMMARY" "$log" || true
done
exit $status
