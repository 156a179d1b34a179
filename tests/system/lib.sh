# System test library: boot the ISO with a guest script, then check what it printed, its
# exit status, the kernel log, and (for disk tests) the image on the host.
#
# A test is a bash file tests/system/NAME.sh sourced by tests/system/run with this library:
#
#   guest_script <<'EOF'
#   echo hello
#   poweroff 7
#   EOF
#   run_guest
#   expect_status 7
#   expect_line 'hello'
#
# Every expectation that fails is reported; the test fails if any did.

SYS_ROOT=${SYS_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
ISO=${ISO:-$SYS_ROOT/build/cgwb.iso}
T=${T:?T (the scratch directory of the test) must be set}
OUT=$T/out        # serial console output, "\r" removed
LOG=$T/log        # kernel log (debugcon)
STATUS=
FAILURES=0

fail()
{
	echo "  FAIL: $*"
	FAILURES=$((FAILURES + 1))
}

# The guest script, from stdin.
guest_script()
{
	cat > "$T/script.sh"
}

# run_guest [--disk IMG[,OPTS]]... [--append ARGS] [--memory SIZE] [--timeout S]
#           [--stdin FILE] [--no-script] [-- extra qemu args]
run_guest()
{
	local args=() stdin=/dev/null timeout=60 script=1 append="cgwb.panic=poweroff"
	while [[ $# -gt 0 ]]; do
		case $1 in
		--disk) args+=(--disk "$2"); shift 2 ;;
		--append) append="$append $2"; shift 2 ;;
		--memory) args+=(--memory "$2"); shift 2 ;;
		--timeout) timeout=$2; shift 2 ;;
		--stdin) stdin=$2; shift 2 ;;
		--no-script) script=0; shift ;;
		--no-debug-exit) args+=(--no-debug-exit); shift ;;
		--) shift; args+=(-- "$@"); break ;;
		*) echo "run_guest: unknown option $1" >&2; return 2 ;;
		esac
	done
	[[ $script -eq 1 ]] && args=(--script "$T/script.sh" "${args[@]}")
	"$SYS_ROOT/scripts/run-qemu" --iso "$ISO" --timeout "$timeout" --log "$LOG" \
		--append "$append" "${args[@]}" < "$stdin" > "$T/out.raw" 2> "$T/qemu.err"
	STATUS=$?
	tr -d '\r' < "$T/out.raw" > "$OUT"
	return 0
}

expect_status()
{
	[[ $STATUS == "$1" ]] || fail "exit status $STATUS, expected $1"
}

# A line of output exactly equal to the argument.
expect_line()
{
	grep -Fxq -- "$1" "$OUT" || fail "no output line '$1'"
}

# Output matching an extended regular expression somewhere.
expect_output()
{
	grep -Eq -- "$1" "$OUT" || fail "no output matching /$1/"
}

expect_no_output()
{
	! grep -Eq -- "$1" "$OUT" || fail "unexpected output matching /$1/: $(grep -Em1 -- "$1" "$OUT")"
}

# Exactly N output lines match the regular expression.
expect_count()
{
	local n
	n=$(grep -Ec -- "$2" "$OUT")
	[[ $n -eq $1 ]] || fail "$n output lines match /$2/, expected $1"
}

expect_log()
{
	grep -Eaq -- "$1" "$LOG" || fail "no kernel log line matching /$1/"
}

expect_no_log()
{
	! grep -Eaq -- "$1" "$LOG" || fail "unexpected kernel log line: $(grep -Eam1 -- "$1" "$LOG")"
}

# The value printed on the output line "KEY VALUE" (first match), for numeric checks.
output_value()
{
	awk -v k="$1" '$1 == k { print $2; exit }' "$OUT"
}

# Numeric comparison with a message: expect_num NAME VALUE OP LIMIT (OP: -lt -le -gt -ge -eq)
expect_num()
{
	[[ -n $2 && $2 =~ ^-?[0-9]+$ ]] || { fail "$1: '$2' is not a number"; return; }
	[ "$2" "$3" "$4" ] || fail "$1 = $2, expected $3 $4"
}
