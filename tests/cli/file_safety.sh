#!/usr/bin/env bash
# File safety of `devport fix` and the walk, with the real binary: what is not written and why,
# links, failed writes, files that are not regular, interrupted and concurrent runs, and output
# that does not depend on the thread count. docs/cli.md ("Writing files") is what this checks.
#   file_safety.sh DEVPORT_BINARY SOURCE_DIR [KILL_TRIALS [RACE_TRIALS]]
set -u
DEVPORT=$(realpath "$1")
SRC=$(realpath "$2")
KILL_TRIALS=${3:-4}
RACE_TRIALS=${4:-3}
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d /tmp/devport-safety.XXXXXX)
cleanup() { chmod -R u+rwx "$T" 2>/dev/null; rm -rf "$T"; }
trap cleanup EXIT
cd "$T"
. "$HERE/harness.sh"

DIRTY='import torch
torch.cuda.synchronize()
'
FIXED='import torch
torch.accelerator.synchronize()
'
dirty() { for f in "$@"; do mkdir -p "$(dirname "$f")"; printf '%s' "$DIRTY" > "$f"; done; }
is_fixed() { [ "$(cat "$1")" = "$(printf '%s' "$FIXED")" ]; }
is_dirty() { [ "$(cat "$1")" = "$(printf '%s' "$DIRTY")" ]; }
no_temp_files() { local left; left=$(find "$1" -name '*.devport-*'); [ -z "$left" ] && ok || bad "temporary files left: $left"; }
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); $1" "$T/out" && ok || bad "json: $1: $(head -c 600 "$T/out")"; }

# --- A read-only file: untouched, named with the reason, exit 1; root too (the mode bits) ------
dirty ro/locked.py ro/open.py
chmod 444 ro/locked.py
expect_exit 1 "$DEVPORT" fix ro
contains "$T/err" "ro/locked.py: read-only (mode 0444): no write permission; not written"
contains "$T/out" "Applied 1 fix in 1 file; 1 finding left in 2 files."
contains "$T/out" "1 file not written (see the errors above)"
is_dirty ro/locked.py && ok || bad "a read-only file was written"
[ "$(stat -c %a ro/locked.py)" = 444 ] && ok || bad "mode changed: $(stat -c %a ro/locked.py)"
is_fixed ro/open.py && ok || bad "the writable file was not fixed"
expect_exit 1 "$DEVPORT" fix --format json ro/locked.py
json 's=d["summary"]; assert s["files_not_written"] == 1 and s["fixes_applied"] == 0 and s["files_changed"] == 0 and len(s["errors"]) == 1 and "read-only" in s["errors"][0] and len(d["diagnostics"]) == 1, s'
no_temp_files ro

# --- As a user who is not root: others' files and unreadable directories -----------------------
# Run as nobody when this is root (setpriv), else as this user (then a file of another user
# cannot be made, and that part is skipped).
as_user=()
if [ "$(id -u)" = 0 ]; then
  if command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups -- test -x "$DEVPORT"; then
    as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups --)
  else
    echo "note: cannot run $DEVPORT as another user: the non-root part is skipped"
  fi
fi
if [ "$(id -u)" != 0 ] || [ ${#as_user[@]} -gt 0 ]; then
  chmod 755 "$T"
  if [ ${#as_user[@]} -gt 0 ]; then
    # Root's files in a directory that everyone may write.
    dirty others/theirs.py others/readable.py
    chmod 777 others; chmod 666 others/theirs.py; chmod 644 others/readable.py
    expect_exit 1 "${as_user[@]}" "$DEVPORT" fix others
    contains "$T/err" "others/theirs.py: owned by uid 0, and a replacement by uid 65534 would change its owner; not written"
    contains "$T/err" "others/readable.py: no write permission for uid 65534 (mode 0644, owner uid 0); not written"
    is_dirty others/theirs.py && is_dirty others/readable.py && ok || bad "another user's file was written"
    [ "$(stat -c %u%a others/theirs.py)" = 0666 ] && ok || bad "owner or mode changed: $(stat -c '%u %a' others/theirs.py)"
    no_temp_files others
  fi
  # An unreadable directory: an error and exit 1, never "No findings" and 0.
  mkdir -p walk/locked && chmod 777 walk && dirty walk/locked/hidden.py && printf 'x = 1\n' > walk/a.py
  chmod 755 walk/locked walk/a.py walk/locked/hidden.py
  [ "$(id -u)" = 0 ] && chown -R 65534 walk
  chmod 000 walk/locked
  expect_exit 1 "${as_user[@]}" "$DEVPORT" check walk
  contains "$T/err" "devport: error: walk/locked: cannot read directory: permission denied"
  contains "$T/out" "1 path could not be checked"
  expect_exit 1 "${as_user[@]}" "$DEVPORT" check --format json walk
  json 's=d["summary"]; assert s["errors"] == ["walk/locked: cannot read directory: permission denied"] and s["files"] == 1, s'
  chmod 755 walk/locked
fi

# --- A directory deeper than PATH_MAX: an error, exit 1 ------------------------------------------
python3 - <<'PY'
import os
os.makedirs("deep")
fd = os.open("deep", os.O_RDONLY)
for _ in range(2100):  # "d/" * 2100: 4,200 bytes
    os.mkdir("d", dir_fd=fd)
    nfd = os.open("d", os.O_RDONLY, dir_fd=fd)
    os.close(fd)
    fd = nfd
os.close(fd)
PY
printf 'x = 1\n' > deep/a.py
expect_exit 1 "$DEVPORT" check deep
contains "$T/err" ": cannot read directory: file name too long"
contains "$T/out" "No findings in 1 file."
contains "$T/out" "1 path could not be checked"
rm -rf deep

# --- Symlinks: through to the target inside the paths given, never outside them ----------------
dirty links/real.py outside/elsewhere.py
ln -s real.py links/one.py; ln -s real.py links/two.py; ln -s ../outside/elsewhere.py links/out.py
expect_exit 1 "$DEVPORT" fix --threads 8 links
lacks "$T/err" "changed on disk"
contains "$T/err" "links/out.py: a symbolic link to $T/outside/elsewhere.py, outside the paths given; not written"
is_fixed links/real.py && ok || bad "the file behind the links was not fixed"
is_dirty outside/elsewhere.py && ok || bad "a file outside the paths given was written"
[ -L links/one.py ] && [ -L links/two.py ] && [ -L links/out.py ] && ok || bad "a symlink was replaced by a file"
contains "$T/out" "Applied 1 fix in 1 file"
expect_exit 0 "$DEVPORT" fix links/out.py   # named: its target may be written
is_fixed outside/elsewhere.py && [ -L links/out.py ] && ok || bad "a symlink named on the command line was not written through"
# Two links to one file that is not walked itself: one entry, whatever the threads (two gave
# "changed on disk" with threads).
dirty twice/real.txt; ln -s real.txt twice/a.py; ln -s real.txt twice/b.py
expect_exit 0 "$DEVPORT" fix --threads 8 twice
lacks "$T/err" "changed on disk"
contains "$T/out" "Applied 1 fix in 1 file; no findings left in 1 file."
is_fixed twice/real.txt && [ -L twice/a.py ] && [ -L twice/b.py ] && ok || bad "not fixed through the links"

# --- Hard links: neither name is written, and both say why --------------------------------------
dirty hard/a.py; ln hard/a.py hard/b.py
expect_exit 1 "$DEVPORT" fix hard
contains "$T/err" "hard/a.py: it has 2 hard links, which a replacement would split (the other names would keep the old text); not written"
contains "$T/err" "hard/b.py: it has 2 hard links"
is_dirty hard/a.py && [ "$(stat -c %i hard/a.py)" = "$(stat -c %i hard/b.py)" ] && ok || bad "a hard link was split or written"

# --- A full disk (RLIMIT_FSIZE): every failed write reported, exit 1 ----------------------------
mkdir full
for i in 1 2; do python3 -c "print('import torch'); [print('torch.cuda.synchronize()') for _ in range(400)]" > full/f$i.py; done
cp -r full full.orig
limited() { bash -c 'ulimit -f 8; exec "$@"' limited "$@" | cat; return "${PIPESTATUS[0]}"; }
expect_exit 1 limited "$DEVPORT" fix --format json full
json 's=d["summary"]; assert s["fixes_applied"] == 0 and s["files_changed"] == 0 and s["files_not_written"] == 2 and len(s["errors"]) == 2 and all("File too large" in e for e in s["errors"]) and s["findings"] == 800, s'
expect_exit 1 limited "$DEVPORT" fix full
contains "$T/out" "Applied 0 fixes in 0 files; 800 findings left in 2 files."
contains "$T/out" "2 files not written"
lacks "$T/out" "no findings left"
diff -r full full.orig >/dev/null && ok || bad "a failed write changed a file"
no_temp_files full

# --- Input that is not a regular file: reported, never read or waited on ------------------------
expect_exit 1 timeout 20 "$DEVPORT" check /dev/zero
contains "$T/err" "/dev/zero: not a regular file (a character device); skipped"
mkdir fifo && mkfifo fifo/x.py && printf 'x = 1\n' > fifo/a.py
expect_exit 1 timeout 20 "$DEVPORT" check fifo/x.py
contains "$T/err" "fifo/x.py: not a regular file (a FIFO); skipped"
expect_exit 0 timeout 20 "$DEVPORT" check fifo   # walking skips it
contains "$T/out" "No findings in 1 file."
python3 -c 'import os; f=open("big.py","w"); f.truncate((64<<20)+1)'
expect_exit 1 "$DEVPORT" check big.py
contains "$T/err" "big.py: too large (67108865 bytes; the limit is 64 MiB); skipped"
rm big.py

# --- A broken symlink named on the command line: exit 2 -----------------------------------------
ln -s nowhere.py broken.py
expect_exit 2 "$DEVPORT" check broken.py
contains "$T/err" "broken.py: broken symbolic link to nowhere.py"
rm broken.py

# --- --diff names with spaces, tabs and quotes apply with patch -p0 and git apply -p0 -----------
mkdir names
for n in 'sp ace.py' "$(printf 'ta\tb.py')" 'quo"te.py' 'back\slash.py' 'é.py'; do dirty "names/$n"; done
cp -r names names.git
expect_exit 1 "$DEVPORT" fix --diff names; cp "$T/out" names.diff
grep -q -F -- '--- names/sp ace.py'$'\t' names.diff && ok || bad "a name with a space has no tab after it"
grep -q -F -- '--- "names/ta\tb.py"' names.diff && ok || bad "a name with a tab is not quoted"
(patch -p0 -s < names.diff) && ok || bad "patch -p0 does not apply the diff"
mv names names.patched; mv names.git names
(git apply -p0 names.diff) && ok || bad "git apply -p0 does not apply the diff"
diff -r names names.patched >/dev/null && ok || bad "patch and git apply disagree"
cp -r names.patched names.fixed; dirty names.fixed/x.py; rm names.fixed/x.py
for n in names/*; do is_fixed "$n" || bad "not fixed by the diff: $n"; done; ok

# --- Temporary files of an interrupted run are removed, those of a running one are not ----------
dirty stale/a.py
printf 'half' > stale/.a.py.devport-Ab12Cd
printf 'held' > stale/.a.py.devport-Held00
flock -s -o stale/.a.py.devport-Held00 sleep 30 & HOLDER=$!
sleep 0.3
expect_exit 0 "$DEVPORT" fix stale
contains "$T/err" "devport: removed stale/.a.py.devport-Ab12Cd, a temporary file left by an interrupted \`devport fix\`"
[ ! -e stale/.a.py.devport-Ab12Cd ] && [ -e stale/.a.py.devport-Held00 ] && ok || bad "stale temporary files: $(ls -A stale)"
kill "$HOLDER"; wait "$HOLDER" 2>/dev/null
expect_exit 0 "$DEVPORT" check stale   # check removes nothing
[ -e stale/.a.py.devport-Held00 ] && ok || bad "check removed a temporary file"
expect_exit 0 "$DEVPORT" fix stale/a.py   # a file named: its directory is looked at
[ ! -e stale/.a.py.devport-Held00 ] && ok || bad "not removed once free: $(ls -A stale)"

# --- A tree made of the rule fixtures: the real thing for the last three parts -------------------
python3 - "$SRC/tests/rules" <<'PY'
import glob, os, shutil, sys
for f in glob.glob(sys.argv[1] + "/*/input*"):
    rule = os.path.basename(os.path.dirname(f))
    for copy in ("1", "2", "3"):
        os.makedirs(os.path.join("fixtures", copy, rule), exist_ok=True)
        shutil.copy(f, os.path.join("fixtures", copy, rule))
PY
NFILES=$(find fixtures -type f | wc -l)
[ "$NFILES" -gt 300 ] && ok || bad "too few fixture files: $NFILES"

# Results do not depend on the thread count (issue 12, deliverable 5).
for fmt in text json; do
  "$DEVPORT" check --format $fmt --threads 1 fixtures > check1.$fmt 2> check1.err
  "$DEVPORT" check --format $fmt --threads 4 fixtures > check4.$fmt 2> check4.err
  cmp -s check1.$fmt check4.$fmt && ok || bad "check --format $fmt differs between --threads 1 and 4"
  cmp -s check1.err check4.err && ok || bad "check's standard error differs between --threads 1 and 4"
done
grep -q "Found [0-9]* findings in $NFILES files" check1.text && ok || bad "fixture check: $(tail -3 check1.text)"
"$DEVPORT" fix --diff --threads 1 fixtures > diff1.out 2>&1
"$DEVPORT" fix --diff --threads 4 fixtures > diff4.out 2>&1
cmp -s diff1.out diff4.out && [ -s diff1.out ] && ok || bad "fix --diff differs between --threads 1 and 4"
cp -r fixtures fixed1; cp -r fixtures fixed4
"$DEVPORT" fix --unsafe-fixes --threads 1 fixed1 > fix1.out 2>&1
"$DEVPORT" fix --unsafe-fixes --threads 4 fixed4 > fix4.out 2>&1
sed -i 's#fixed4/#fixed1/#g' fix4.out
cmp -s fix1.out fix4.out && ok || bad "fix output differs between --threads 1 and 4"
diff -r fixed1 fixed4 >/dev/null && ok || bad "fixed trees differ between --threads 1 and 4"
no_temp_files fixed1

# kill -9 while fix writes the tree: every file wholly old or wholly new; the next run removes
# whatever temporary file was left and finishes the job.
hit=0
for trial in $(seq 1 "$KILL_TRIALS"); do
  rm -rf victim; cp -r fixtures victim
  "$DEVPORT" fix --unsafe-fixes -q victim > /dev/null 2>&1 &
  pid=$!
  sleep "0.$(( (RANDOM % 9) + 1 ))"
  kill -9 "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
  # "old new torn" counts of the files (temporary files aside).
  read -r old new torn < <(python3 - <<'PY'
import os
counts = [0, 0, 0]
for root, _, files in os.walk("victim"):
    for name in files:
        if ".devport-" in name:
            continue
        path = os.path.join(root, name)
        rel = os.path.relpath(path, "victim")
        data = open(path, "rb").read()
        if data == open(os.path.join("fixtures", rel), "rb").read():
            counts[0] += 1
        elif data == open(os.path.join("fixed1", rel), "rb").read():
            counts[1] += 1
        else:
            counts[2] += 1
            print("torn:", path, file=os.sys.stderr)
print(*counts)
PY
)
  [ "$torn" = 0 ] && ok || bad "kill -9 trial $trial: $torn files neither old nor new"
  [ "$old" -gt 0 ] && [ "$new" -gt 0 ] && hit=$((hit + 1))
  "$DEVPORT" fix --unsafe-fixes -q victim > /dev/null 2>&1
  no_temp_files victim
  diff -r victim fixed1 >/dev/null && ok || bad "kill -9 trial $trial: the run after it did not finish the job"
done
echo "kill -9: $KILL_TRIALS trials, $hit killed halfway (some files old, some new)"

# Two fix runs at once on one tree, each with its own rule. A run that reports a file written (it
# had an edit for it and no error) must find its edit there afterwards: the other run refused the
# file as changed on disk, or read it after the write. No byte is lost: one more run gives what
# one run alone gives. (Rules whose fixes do not depend on each other's, so that "its edit is
# there" has one meaning.)
mkdir race
for i in $(seq 1 150); do
  printf 'import torch\n# file %s\ntorch.cuda.synchronize()\nn = torch.cuda.device_count()\n' "$i" > race/f$i.py
done
cp -r race race.fixed; "$DEVPORT" fix -q race.fixed > /dev/null 2>&1
refused=0
for trial in $(seq 1 "$RACE_TRIALS"); do
  rm -rf both; cp -r race both
  "$DEVPORT" fix --format json --select cuda-synchronize both > a.json 2>/dev/null &
  pa=$!
  "$DEVPORT" fix --format json --select cuda-device-count both > b.json 2>/dev/null &
  pb=$!
  wait $pa; wait $pb
  n=$(python3 - <<'PY'
import json, os
refused = 0
for run, left in (("a", "torch.cuda.synchronize()"), ("b", "torch.cuda.device_count()")):
    s = json.load(open(run + ".json"))["summary"]
    assert s["files_not_written"] == len(s["errors"]), s
    assert all("changed on disk" in e for e in s["errors"]), s["errors"][:3]
    not_written = {e.split(": ")[0] for e in s["errors"]}
    refused += len(not_written)
    for f in sorted(os.listdir("both")):
        p = "both/" + f
        assert p in not_written or left not in open(p).read(), (run, p, "its edit was lost")
print(refused)
PY
) && ok || bad "concurrent trial $trial: an edit reported written was lost"
  refused=$((refused + ${n:-0}))
  "$DEVPORT" fix -q both > /dev/null 2>&1
  diff -r both race.fixed >/dev/null && ok || bad "concurrent trial $trial: the tree differs from one run's"
  no_temp_files both
done
echo "concurrent fix runs: $RACE_TRIALS trials, $refused files refused as changed on disk"

summary
