#!/usr/bin/env bash
# .pre-commit-hooks.yaml through the real pre-commit (Debian's package; scripts/bootstrap.sh
# installs it): in a scratch repository with a staged file that calls torch.cuda.device_count(),
# `pre-commit try-repo <this checkout> devport-check` fails, devport-fix rewrites the file, and the
# check then passes; the README's `repo: local` configuration behaves the same. The hooks run
# `devport` from PATH (language: system): the test puts the built binary's directory first. No
# network: try-repo clones the local checkout, and system hooks need no environment.
#   pre_commit.sh DEVPORT_BINARY SOURCE_DIR
set -u
DEVPORT=$(realpath "$1")
SRC=$(realpath "$2")
HERE=$(cd "$(dirname "$0")" && pwd)
if ! command -v pre-commit >/dev/null; then
  echo "pre-commit is not installed (scripts/bootstrap.sh installs Debian's pre-commit): skipped"
  exit 77
fi
T=$(mktemp -d /tmp/devport-pre-commit.XXXXXX)
trap 'rm -rf "$T"' EXIT
export PATH="$(dirname "$DEVPORT"):$PATH" PRE_COMMIT_HOME="$T/cache"
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
export GIT_CONFIG_NOSYSTEM=1 HOME="$T/home"
mkdir -p "$HOME"
. "$HERE/harness.sh"

# The hooks repository: this checkout when git tracks its .pre-commit-hooks.yaml (try-repo takes
# HEAD plus the uncommitted changes of tracked files: a fresh clone, CI), else a repository made
# of a copy of that file (a checkout where it is not committed yet).
HOOKS=$SRC
if ! git -C "$SRC" ls-files --error-unmatch .pre-commit-hooks.yaml >/dev/null 2>&1; then
  echo "note: .pre-commit-hooks.yaml is not committed in $SRC: trying a copy of it"
  HOOKS=$T/hooks
  git init -q "$HOOKS" && cp "$SRC/.pre-commit-hooks.yaml" "$HOOKS/"
  git -C "$HOOKS" add -A && git -C "$HOOKS" commit -qm hooks
fi

git init -q "$T/proj" && cd "$T/proj"
printf 'import torch\n\nn = torch.cuda.device_count()\n' > train.py
printf 'x = 1\n' > clean.py
git add train.py clean.py

expect_exit fail pre-commit try-repo "$HOOKS" devport-check --files train.py clean.py
contains "$T/out" "devport check"
contains "$T/out" "[cuda-device-count]"
expect_exit 0 pre-commit try-repo "$HOOKS" devport-check --files clean.py
expect_exit fail pre-commit try-repo "$HOOKS" devport-fix --files train.py   # it changed the file
contains "$T/out" "files were modified by this hook"
grep -q "n = torch.accelerator.device_count()" train.py && ok || bad "devport-fix did not fix: $(cat train.py)"
expect_exit 0 pre-commit try-repo "$HOOKS" devport-check --files train.py
expect_exit 0 pre-commit try-repo "$HOOKS" devport-fix --files train.py      # nothing left to fix

# The README's `repo: local` configuration, as a commit runs it.
git add -A && git commit -qm fixed
printf 'import torch\ntorch.cuda.synchronize()\n' > sync.py
cat > .pre-commit-config.yaml <<'YAML'
repos:
  - repo: local
    hooks:
      - id: devport-check
        name: devport check
        entry: devport check
        language: system
        types_or: [python, pyi, c++, cuda]
        require_serial: true
YAML
git add sync.py .pre-commit-config.yaml
expect_exit fail pre-commit run
contains "$T/out" "[cuda-synchronize]"
sed -i 's/torch.cuda.synchronize()/torch.accelerator.synchronize()/' sync.py && git add sync.py
expect_exit 0 pre-commit run

summary
