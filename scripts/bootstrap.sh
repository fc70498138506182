#!/usr/bin/env bash
# bootstrap.sh: a fresh Debian bookworm machine -> every dependency installed and devport built.
#
#   scripts/bootstrap.sh
#
# Environment:
#   BUILD_DIR    build directory (default: build)
#   BUILD_TYPE   CMake build type (default: Release)
#   SANITIZE=1   build with AddressSanitizer + UndefinedBehaviorSanitizer
#   SKIP_APT=1   do not install Debian packages (they must already be there); the PyTorch
#                headers (.deps/torch-headers) are still downloaded when missing
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
BUILD_TYPE=${BUILD_TYPE:-Release}

# Debian packages: compilers and build tools, LLVM/Clang 14 (shared libLLVM and libclang-cpp for the
# tests, llvm-14-dev's and libclang-14-dev's static archives and zlib1g-dev for the devport program;
# libclang-14-dev carries ClangConfig.cmake), GoogleTest, node/npm for the tree-sitter sources and
# the SARIF schema test, python3 for the doc and fixture scripts, pre-commit for the test of
# .pre-commit-hooks.yaml, FileCheck (llvm-14-tools) and Neovim for the LSP tests, util-linux's
# `script` for the CLI's terminal test, and chromium, headless, for the HTML report's browser test
# (tests/report/html_in_browser.py; 25 packages, 122 MB download, 370 MB installed, about 55 s),
# Google Benchmark for the micro-benchmarks (bench/micro/, built with -DDEVPORT_BENCH=ON), and
# libFuzzer for clang-14 (libclang-rt-14-dev: the fuzz targets of fuzz/, built with
# -DDEVPORT_FUZZ=ON by fuzz/run.sh).
APT_PKGS=(cmake ninja-build g++ clang-14 lld-14 llvm-14-dev llvm-14-tools libclang-14-dev
          zlib1g-dev libclang-cpp14-dev libgtest-dev libgmock-dev ccache python3 git pre-commit
          neovim bsdutils chromium libbenchmark-dev libclang-rt-14-dev)
command -v npm >/dev/null 2>&1 || APT_PKGS+=(nodejs npm)
if [[ "${SKIP_APT:-0}" != 1 ]]; then
  missing=()
  for p in "${APT_PKGS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    SUDO=
    [[ $(id -u) == 0 ]] || SUDO=sudo
    echo "bootstrap: installing ${missing[*]}"
    $SUDO apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
fi

# Real PyTorch headers for the semantic C++ integration tests and bench/cpp_semantic.sh: Debian's
# libtorch-dev (1.13) plus the gflags/glog headers that c10 includes, unpacked (not installed) into
# .deps/torch-headers (45 MB). Skipped when present; tried even with SKIP_APT=1 (CI's second
# bootstrap), and when it fails the integration tests are skipped, not failed.
TORCH_HEADERS=.deps/torch-headers
if [[ ! -f "$TORCH_HEADERS/usr/include/c10/core/DeviceType.h" ]]; then
  SUDO=
  [[ $(id -u) == 0 ]] || SUDO=sudo
  TORCH_DEBS=(libtorch-dev libgflags-dev libgoogle-glog-dev)
  tmp=$(mktemp -d)
  # apt-get download needs the package lists (missing on a fresh image); it runs unprivileged
  # in $tmp, but apt's sandbox user must be able to write there.
  chmod 0777 "$tmp"
  if ! (cd "$tmp" && apt-get download -qq "${TORCH_DEBS[@]}") 2>/dev/null; then
    echo "bootstrap: apt-get download failed; updating the package lists"
    $SUDO apt-get update -qq || true
    (cd "$tmp" && apt-get download -qq "${TORCH_DEBS[@]}") || true
  fi
  debs=("$tmp"/*.deb)
  if [[ -e "${debs[0]}" ]]; then
    rm -rf "$TORCH_HEADERS.tmp" && mkdir -p "$TORCH_HEADERS.tmp"
    for d in "${debs[@]}"; do dpkg-deb -x "$d" "$TORCH_HEADERS.tmp"; done
    rm -rf "$TORCH_HEADERS" && mv "$TORCH_HEADERS.tmp" "$TORCH_HEADERS"
    echo "bootstrap: PyTorch headers in $TORCH_HEADERS"
  else
    echo "bootstrap: could not download ${TORCH_DEBS[*]}: the C++ integration tests will be skipped"
  fi
  rm -rf "$tmp"
fi

# tree-sitter core and tree-sitter-python C sources, and (devDependencies) the SARIF 2.1.0 schema
# with the ajv validator for tests/report/validate_sarif.js, pinned by package-lock.json (nothing
# is built by node: --ignore-scripts).
npm ci --ignore-scripts --no-audit --no-fund --loglevel=error

# The only C in the build is tree-sitter's. Built by gcc it runs faster than built by clang-14
# (measured, docs/benchmarks.md: the language server's update of a 5,570-line file 2.8 -> 2.2 ms,
# `check` of PyTorch's Python files 9% less CPU; most of it in the tree cursor's steps). A
# sanitizer build keeps one compiler family: every object must share its sanitizer runtime.
SAN=OFF
C_COMPILER=gcc
[[ "${SANITIZE:-0}" == 1 ]] && SAN=ON && C_COMPILER=clang-14
# A build directory configured with another C compiler: CMake would drop its whole cache when
# told of the new one, and with it the C++ compiler and linker given below. Start it afresh.
if [[ -f "$BUILD_DIR/CMakeCache.txt" ]] &&
  [[ "$(sed -n 's/^CMAKE_C_COMPILER:[A-Z]*=//p' "$BUILD_DIR/CMakeCache.txt")" != "$(command -v "$C_COMPILER")" ]]; then
  rm -rf "$BUILD_DIR/CMakeCache.txt" "$BUILD_DIR/CMakeFiles"
fi
cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE="$BUILD_TYPE" \
  -DCMAKE_C_COMPILER="$C_COMPILER" -DCMAKE_CXX_COMPILER=clang++-14 \
  -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -DCMAKE_SHARED_LINKER_FLAGS=-fuse-ld=lld \
  -DDEVPORT_SANITIZE="$SAN"
cmake --build "$BUILD_DIR" -j"$(nproc)"
