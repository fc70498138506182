#!/usr/bin/env bash
# End to end: headless Neovim's built-in LSP client drives `devport lsp` on a
# scratch file, as an editor user would (see e2e.lua). Exit 77 (skipped) when
# nvim is not installed.
#   run.sh DEVPORT
set -euo pipefail
devport=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
command -v nvim >/dev/null 2>&1 || { echo "nvim not found (Debian package neovim): skipped"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'import torch\n\nn = torch.cuda.device_count()\nprint(n)\n' >"$work/train.py"
export DEVPORT="$devport" FILE="$work/train.py" XDG_CONFIG_HOME="$work/config" \
       XDG_DATA_HOME="$work/data" XDG_STATE_HOME="$work/state" XDG_CACHE_HOME="$work/cache"
# Neovim exits 0 only when e2e.lua ran to its end (it `cquit`s on a failure).
timeout 50 nvim --headless --clean -n -c "luafile $here/e2e.lua" 2>&1 | tee "$work/out.txt"
status=${PIPESTATUS[0]}
grep -q "e2e: ok" "$work/out.txt" || { echo "e2e.lua did not finish (status $status)"; exit 1; }
# The file on disk was saved by Neovim after the fix.
grep -q "torch.accelerator.device_count()" "$work/train.py" || { echo "the fix was not saved"; exit 1; }
exit "$status"
