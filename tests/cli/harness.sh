# harness.sh: what the shell tests of tests/cli share; source it after setting T (a scratch
# directory). Counts in $passed and $failed; finish with `summary`.
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*" >&2; }
# expect_exit CODE CMD...: runs CMD, keeps stdout in $T/out and stderr in $T/err. CODE "fail"
# accepts any non-zero exit.
expect_exit() {
  local want=$1; shift
  "$@" >"$T/out" 2>"$T/err"
  local got=$?
  if [ "$got" = "$want" ] || { [ "$want" = fail ] && [ "$got" != 0 ]; }; then ok
  else bad "'$*' exited $got, want $want; output: $(tail -c 1500 "$T/err") $(tail -c 600 "$T/out")"; fi
}
contains() { if grep -qF -- "$2" "$1"; then ok; else bad "$1 lacks '$2': $(tail -c 1500 "$1")"; fi; }
lacks() { if grep -qF -- "$2" "$1"; then bad "$1 has '$2'"; else ok; fi; }
# The closing line that CTest logs show, and the exit status.
summary() {
  echo "$passed passed, $failed failed"
  [ "$failed" = 0 ]
}
