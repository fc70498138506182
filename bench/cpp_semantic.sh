#!/usr/bin/env bash
# cpp_semantic.sh: time the semantic C++ backend per translation unit on bench/cpp-extension/, a
# small libtorch-style extension over Debian's libtorch-dev headers (scripts/bootstrap.sh unpacks
# them into .deps/torch-headers), next to `clang++-14 -fsyntax-only` on the same commands.
#
#   bench/cpp_semantic.sh          # BUILD_DIR (default build) must be configured
#
# Builds devport-cpp-semantic-bench (-DDEVPORT_BENCH=ON) in BUILD_DIR and configures the extension
# in BUILD_DIR/bench-cpp-extension for its compile_commands.json.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
EXT_BUILD="$BUILD_DIR/bench-cpp-extension"

cmake -S bench/cpp-extension -B "$EXT_BUILD" -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 \
  -DTORCH_HEADERS="$PWD/.deps/torch-headers/usr/include" >/dev/null
cmake -S . -B "$BUILD_DIR" -DDEVPORT_BENCH=ON >/dev/null
ninja -C "$BUILD_DIR" -j"${JOBS:-1}" devport-cpp-semantic-bench >/dev/null

mapfile -t FILES < <(ls "$PWD"/bench/cpp-extension/src/*.cpp)
echo "== runSemantic per TU (devport-cpp-semantic-bench)"
"$BUILD_DIR/devport-cpp-semantic-bench" "$EXT_BUILD" "${FILES[@]}"

echo "== clang++-14 -fsyntax-only per TU (the same commands)"
python3 - "$EXT_BUILD/compile_commands.json" <<'PY'
import json, shlex, subprocess, sys, time
for e in json.load(open(sys.argv[1])):
    args = e.get("arguments") or shlex.split(e["command"])
    out, skip = [], False
    for a in args[1:]:
        if skip:
            skip = False
            continue
        if a == "-o":
            skip = True
            continue
        if a != "-c":
            out.append(a)
    t = time.monotonic()
    r = subprocess.run(["clang++-14", "-fsyntax-only", "-w", *out], cwd=e["directory"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    name = e["file"].split("/")[-1]
    print(f"{name:40s} {time.monotonic() - t:6.2f} s  exit {r.returncode}")
PY
