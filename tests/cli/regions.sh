#!/usr/bin/env bash
# regions.sh: region parsing (matchers/python/Regions.h) changes no result. Runs devport on a
# tree twice, parsing only the statements that rules can need (the default; for C++, lexing
# all but the statements where no pattern can match) and with --whole-files, and requires
# byte-identical output and exit codes from
#   check --format json --show-kept   (with the default target and with --target-torch 2.5)
#   fix --diff --unsafe-fixes
#
#   tests/cli/regions.sh DEVPORT SOURCE_DIR [CORPUS]
#
# Without CORPUS (CTest `regions.equivalence`) the tree is generated from every Python and C++
# fixture input under SOURCE_DIR/tests/rules: each file as it is, wrapped in a function, wrapped
# in a class and an `if`, with CRLF line ends, and files that join several fixtures with
# unrelated code between them (functions, classes, decorators, try/except imports, comments,
# docstrings, multi-line statements), from a fixed seed; each C++ input as it is, between
# functions, classes and comments that name no device, inside namespaces, and with CRLF. With CORPUS (a directory, e.g. PyTorch's source
# from ../shared/corpus/get-pytorch-source.sh) it runs on that tree instead, by hand:
#   tests/cli/regions.sh build/devport . /tmp/pytorch-src
set -euo pipefail
DEVPORT=$1
SRC=$2
CORPUS=${3:-}
tmp=$(mktemp -d /tmp/devport-regions.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

if [[ -z "$CORPUS" ]]; then
  CORPUS=$tmp/corpus
  python3 - "$SRC/tests/rules" "$CORPUS" <<'PY'
import os, random, sys, glob
rules, out = sys.argv[1], sys.argv[2]
inputs = sorted(glob.glob(os.path.join(rules, "*", "input*.py")))
assert inputs, "no fixture inputs under " + rules
rng = random.Random(20261123)

def write(rel, text, crlf=False):
    path = os.path.join(out, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    data = text.replace("\n", "\r\n") if crlf else text
    with open(path, "w", newline="") as f:
        f.write(data)

def indent(text, n):
    return "".join((" " * n + l) if l.strip() else l for l in text.splitlines(True))

FILLERS = [
    "def _unrelated_{i}(x, y=2):\n    '''Adds.\n\n    >>> _unrelated_{i}(1)\n    3\n    '''\n    total = x + y\n    return total\n",
    "try:\n    import numpy as np\nexcept ImportError:\n    np = None\n",
    "@functools.lru_cache(None)\nclass _Holder{i}:\n    value = [\n        1,\n        2,\n    ]\n\n    def get(self):\n        if self.value:\n            return self.value\n        return None\n",
    "# A comment that says nothing about devices.\nresult_{i} = {{\n    'a': 1,\n    'b': (2,\n          3),\n}}\n",
    "for _k in range(3):\n    pass\nelse:\n    _done_{i} = True\n",
    "with open(__file__) as _f:\n    _text_{i} = _f.read()\n",
    "async def _coro_{i}():\n    await something()\n",
    "x_{i} = 1; y_{i} = 2\n",
    "if __name__ == '__main__':\n    main()\n",
]

for k, path in enumerate(inputs):
    rule = os.path.basename(os.path.dirname(path))
    name = os.path.basename(path)[:-3]
    text = open(path, encoding="utf-8").read()
    if not text.endswith("\n"):
        text += "\n"
    write(f"plain/{rule}/{name}.py", text)
    write(f"function/{rule}/{name}.py", "import torch\n\n\ndef _wrapped():\n" + indent(text, 4))
    write(f"class/{rule}/{name}.py", "import torch\n\n\nclass _Wrapped:\n    if True:\n" + indent(text, 8))
    if k % 3 == 0:
        write(f"crlf/{rule}/{name}.py", text, crlf=True)

texts = [open(p, encoding="utf-8").read() for p in inputs]
for i in range(80):
    parts = ['"""A module joined from fixtures."""\nimport functools\n']
    for t in rng.sample(texts, 4):
        parts.append(rng.choice(FILLERS).format(i=i))
        parts.append(t if t.endswith("\n") else t + "\n")
    parts.append(rng.choice(FILLERS).format(i=i))
    write(f"mixed/m{i:03}.py", "\n".join(parts))

# C++ (region lexing, matchers/cpp/CppMatcher.h): each input as it is, between functions,
# classes and comments that name no device, inside namespaces, and with CRLF line ends.
crng = random.Random(20261127)
CPP_FILLERS = [
    "int add_{i}(int a, int b) {{\n  int s = a + b; // sums\n  return s;\n}}\n",
    "struct Point{i} {{\n  int x = 0, y = 0;\n  int norm() const {{ return x * x + y * y; }}\n}} origin{i};\n",
    "template <typename T>\nT twice_{i}(T v) {{\n  auto f = [&](T w) {{ return w + w; }};\n  for (int i = 0; i < 2; ++i) {{\n    v = f(v);\n  }}\n  return v;\n}}\n",
    "/* {{ braces }} and ; in a comment */\nclass Holder{i} {{\npublic:\n  int get() const {{ return 'x'; }}\n}};\n",
]
cpp_inputs = sorted(p for ext in ("cpp", "cu", "h") for p in glob.glob(os.path.join(rules, "*", "input*." + ext)))
assert cpp_inputs, "no C++ fixture inputs under " + rules
for k, path in enumerate(cpp_inputs):
    rule = os.path.basename(os.path.dirname(path)) + "-" + os.path.basename(path).rsplit(".", 1)[0]
    ext = path.rsplit(".", 1)[1]
    text = open(path, encoding="utf-8").read()
    if not text.endswith("\n"):
        text += "\n"
    fill = lambda: crng.choice(CPP_FILLERS).format(i=k)
    write(f"cpp/plain/{rule}.{ext}", text)
    write(f"cpp/around/{rule}.{ext}", fill() + text + fill())
    write(f"cpp/nested/{rule}.{ext}", "namespace outer {\n" + fill() + "namespace inner {\n" + text + "\n}  // namespace inner\n" + fill() + "}  // namespace outer\n")
    write(f"cpp/crlf/{rule}.{ext}", fill() + text + fill(), crlf=True)
PY
fi

fail=0
compare() {  # compare NAME ARGS...: the same output both ways
  local name=$1
  shift
  set +e
  "$DEVPORT" "$@" "$CORPUS" > "$tmp/$name.regions" 2> "$tmp/$name.regions.err"
  local a=$?
  "$DEVPORT" "$@" --whole-files "$CORPUS" > "$tmp/$name.whole" 2> "$tmp/$name.whole.err"
  local b=$?
  set -e
  if [[ $a -ne $b ]]; then
    echo "FAIL $name: exit $a with regions, $b with --whole-files"
    fail=1
  fi
  for s in "" .err; do
    if ! cmp -s "$tmp/$name.regions$s" "$tmp/$name.whole$s"; then
      echo "FAIL $name: output$s differs"
      diff "$tmp/$name.whole$s" "$tmp/$name.regions$s" | head -n 40
      fail=1
    fi
  done
  echo "$name: exit $a, $(wc -c < "$tmp/$name.regions") bytes of output, same both ways"
}

files=$(find "$CORPUS" -name '*.py' | wc -l)
cpp=$(find "$CORPUS" \( -name '*.cpp' -o -name '*.cu' -o -name '*.h' \) | wc -l)
echo "corpus: $CORPUS ($files Python files, $cpp C++ files)"
[[ $files -gt 0 ]] || { echo "FAIL: no Python files"; exit 1; }
compare check check --format json --show-kept --quiet
compare check-torch25 check --format json --show-kept --quiet --target-torch 2.5
compare fix-diff fix --diff --unsafe-fixes --quiet
if [[ $cpp -gt 0 ]]; then
  compare cpp-lexical check --format json --show-kept --quiet --cpp-engine lexical
  compare cpp-fix-diff fix --diff --unsafe-fixes --quiet --cpp-engine lexical
fi
# The findings must be real: a tree where nothing is found proves nothing.
grep -q '"rule"' "$tmp/check.regions" || { echo "FAIL: no findings at all"; fail=1; }
exit $fail
