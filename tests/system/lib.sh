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
PROGRAMS=${PROGRAMS:-$SYS_ROOT/build/programs}
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

# What the test needs cannot be had here (a tool, a package): it counts as skipped, not
# passed, unless something it did check failed.
skip()
{
	echo "  SKIP: $*"
	echo "$*" > "$T/skipped"
}

# Every run's kernel log is free of the reports that mean a bug nobody asked for: a warning,
# a task hung in uninterruptible sleep, a spinlock misused. A test that provokes them on
# purpose (cgwb.selftest=) sets KERNEL_REPORTS_EXPECTED=1.
check_kernel_reports()
{
	[[ ${KERNEL_REPORTS_EXPECTED:-0} -eq 1 || ! -f $LOG ]] && return 0
	local report
	report=$(grep -a -m1 -E 'WARNING: |INFO: task .* blocked for more than|spinlock .*: (recursive lock|unlock of an unlocked lock)|scheduling while atomic' "$LOG")
	[[ -z $report ]] || fail "kernel report in the log: $report"
}

# The filesystem of a test's disk: ext2, or ext4 when a test that runs another one on ext4
# sets TEST_FS=ext4 (and TEST_FS_OPTS, e.g. data=writeback) before sourcing it.
TEST_FS=${TEST_FS:-ext2}
TEST_FS_OPTS=${TEST_FS_OPTS:-}

# test_mkfs IMG SIZE: a fresh $TEST_FS image (ext4: Debian's mke2fs defaults, with a journal)
test_mkfs()
{
	rm -f "$1"
	PATH=$PATH:/usr/sbin:/sbin mke2fs -q -F -t "$TEST_FS" "$1" "$2" > /dev/null 2>&1 ||
		fail "mke2fs -t $TEST_FS"
}

# programs_image IMG SIZE: an ext4 image with the test programs (tests/programs/) in /bin
programs_image()
{
	rm -rf "$T/progtree" && mkdir -p "$T/progtree/bin" || fail "programs tree"
	cp "$PROGRAMS"/* "$T/progtree/bin/" || fail "no test programs in $PROGRAMS (make programs)"
	PATH=$PATH:/usr/sbin:/sbin mke2fs -q -F -t ext4 -d "$T/progtree" "$1" "$2" > /dev/null 2>&1 ||
		fail "mke2fs programs image"
}

# The guest script, from stdin. cgwb's boot mounts the ext2, ext3 or ext4 on /dev/vda on
# /mnt by itself; with TEST_FS=ext4 the script mounts it again with TEST_FS_OPTS first (and
# stops at once if it cannot).
guest_script()
{
	{
		[[ $TEST_FS == ext2 ]] || echo "umount /mnt 2> /dev/null;" \
			"mount -t $TEST_FS${TEST_FS_OPTS:+ -o $TEST_FS_OPTS} /dev/vda /mnt ||" \
			"{ echo 'mount -t $TEST_FS failed'; poweroff 1; }"
		cat
	} > "$T/script.sh"
}

# run_guest [--disk IMG[,OPTS]]... [--append ARGS] [--memory SIZE] [--smp N] [--timeout S]
#           [--stdin FILE] [--no-script] [--trace FILE [--trace-events LIST]]
#           [-- extra qemu args]
run_guest()
{
	local args=() stdin=/dev/null timeout=60 script=1 append="cgwb.panic=poweroff lockdep"
	while [[ $# -gt 0 ]]; do
		case $1 in
		--disk) args+=(--disk "$2"); shift 2 ;;
		--append) append="$append $2"; shift 2 ;;
		--memory) args+=(--memory "$2"); shift 2 ;;
		--smp) args+=(--smp "$2"); shift 2 ;;
		--trace | --trace-events) args+=("$1" "$2"); shift 2 ;;
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
	printf '%s\n' "${args[@]}" | awk 'prev == "--disk" { print } { prev = $0 }' > "$T/disks"
	[[ -n ${DIALOG_CHILD:-} ]] || fsck_disks # a dialog checks in finish_guest
	[[ -n ${DIALOG_CHILD:-} ]] || check_kernel_reports
	return 0
}

# ext4_sample_tree DIR: the tree the ext4 tests give mke2fs -d: files of 6 bytes to 3 MiB, a
# sparse file of more extents than an inode holds, and a directory of 400 names (to index)
ext4_sample_tree()
{
	local src=$1 i
	mkdir -p "$src/dir/sub" "$src/big"
	head -c 3M /dev/urandom > "$src/large"
	head -c 70000 /dev/urandom > "$src/dir/sub/medium"
	echo hello > "$src/small"
	for i in $(seq 0 23); do # 4 KiB pieces 64 KiB apart
		head -c 4096 /dev/urandom | dd of="$src/sparse" bs=4096 seek=$((i * 16)) conv=notrunc status=none
	done
	for i in $(seq 1 400); do echo "$i" > "$src/big/entry-with-a-longer-name-$i"; done
}

# expect_group_wbs A_KB B_KB: /sys/kernel/debug/bdi/*/wb_stats in the output lists the root
# wb and one wb per group, A's and B's having written at least A_KB and B_KB
expect_group_wbs()
{
	local written w0 w1 w2
	expect_count 3 '^WbCgIno: '
	written=$(awk '/^WbWritten:/ { print $2 }' "$OUT" | sort -n | tr '\n' ' ')
	read -r w0 w1 w2 <<< "$written"
	expect_num "A's wb WbWritten (kB)" "$w1" -ge "$1"
	expect_num "B's wb WbWritten (kB)" "$w2" -ge "$2"
}

# After every run, each writable ext2 image the guest had must pass `e2fsck -fn`: whatever
# the test checks, a run must never leave a damaged filesystem. A test that damages one on
# purpose (a power cut) sets FSCK_AFTER_RUN=0 and checks the image itself.
FSCK_AFTER_RUN=1
fsck_disks()
{
	local d img
	[[ $FSCK_AFTER_RUN -eq 1 && -f $T/disks ]] || return 0
	while read -r d; do
		[[ $d == *readonly=on* || $d == *driver=* ]] && continue
		img=${d%%,*}
		[[ $(od -An -tx2 -j1080 -N2 "$img" 2> /dev/null | tr -d ' ') == ef53 ]] || continue
		PATH=$PATH:/usr/sbin:/sbin e2fsck -fn "$img" > "$T/fsck-after-run.log" 2>&1 ||
			fail "e2fsck -fn $(basename "$img") after the run: $(grep -v '^Pass\|^e2fsck' \
				"$T/fsck-after-run.log" | head -n 3 | tr '\n' ' ')"
	done < "$T/disks"
}

expect_status()
{
	[[ $STATUS == "$1" ]] && return
	fail "exit status $STATUS, expected $1"
	# this run's own words, before a later run of the same test writes over them
	sed -n 's/^run-qemu:/  | run-qemu:/p' "$T/qemu.err" | head -n 20
	tail -n 3 "$T/log" | sed 's/^/  | log: /'
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

# ---------------------------------------------------------------------------- dialogs
# An interactive test talks to the shell like a person at the terminal: it sends a line only
# after the output it depends on has appeared, never after a delay, so a busy machine cannot
# reorder keys and output. The output read so far is a cursor into the console stream; every
# await consumes output up to the end of what it matched.
#
#   start_guest [run_guest options]  # --no-script for a session typed at the prompt
#   await_prompt                  # the next "cgwb# " after the cursor
#   send 'echo hellx\177o\r'      # printf escapes are interpreted
#   await_line 'hello'            # the next complete output line equal to the text
#   finish_guest                  # close the console, wait for the guest, set STATUS
#
# A failed await is reported once and stops the dialog: what follows is skipped and the guest
# is stopped at once, so the test fails quickly with the output seen so far.

PROMPT='cgwb# '
AWAIT_TIMEOUT=${AWAIT_TIMEOUT:-60}
DIALOG_CURSOR=0
DIALOG_BROKEN=0
DIALOG_PID=

start_guest()
{
	rm -f "$T/console.fifo" && mkfifo "$T/console.fifo"
	: > "$T/out.raw"
	DIALOG_CURSOR=0
	DIALOG_BROKEN=0
	(
		DIALOG_CHILD=1
		run_guest --stdin "$T/console.fifo" "$@"
		echo "$STATUS" > "$T/status"
	) &
	DIALOG_PID=$!
	exec {DIALOG_FD}> "$T/console.fifo"
}

send()
{
	[[ $DIALOG_BROKEN -eq 0 ]] || return 1
	printf '%b' "$1" >&"$DIALOG_FD"
}

# _dialog_await KIND TEXT: wait for TEXT (KIND text: anywhere; line: a whole line) after the
# cursor, and move the cursor past it. Offsets are in bytes (LC_ALL=C).
_dialog_await()
{
	local kind=$1 text=$2 deadline=$((SECONDS + AWAIT_TIMEOUT)) chunk rest line off
	[[ $DIALOG_BROKEN -eq 0 ]] || return 1
	local LC_ALL=C
	while :; do
		chunk=$(tail -c +$((DIALOG_CURSOR + 1)) "$T/out.raw"; printf x)
		chunk=${chunk%x}
		if [[ $kind == text ]]; then
			rest=${chunk#*"$text"}
			if [[ $rest != "$chunk" ]]; then
				DIALOG_CURSOR=$((DIALOG_CURSOR + ${#chunk} - ${#rest}))
				return 0
			fi
		else
			off=0
			# only complete lines: a line still being printed may grow
			while [[ $chunk == *$'\n'* ]]; do
				line=${chunk%%$'\n'*}
				chunk=${chunk#*$'\n'}
				off=$((off + ${#line} + 1))
				if [[ ${line%$'\r'} == "$text" ]]; then
					DIALOG_CURSOR=$((DIALOG_CURSOR + off))
					return 0
				fi
			done
		fi
		if ! kill -0 "$DIALOG_PID" 2> /dev/null || [[ $SECONDS -ge $deadline ]]; then
			fail "waited in vain for $kind '$text' (the guest $(kill -0 "$DIALOG_PID" 2> /dev/null \
				&& echo "is still running after ${AWAIT_TIMEOUT}s" || echo "has stopped"))"
			DIALOG_BROKEN=1
			pkill -f -- "file:$LOG" 2> /dev/null
			return 1
		fi
		sleep 0.05 # polling the output file, not timing the guest
	done
}

# The power goes: QEMU is killed as the guest runs (run-qemu then reports 124, as for a
# timeout). Nothing the guest had not written to the disk image survives.
pull_plug()
{
	pkill -KILL -f -- "file:$LOG"
}

# cut_power_after LINE [start_guest args]: the guest script runs until it prints LINE, then
# the power goes; the disks are left as they are (the caller checks them: no fsck here).
cut_power_after()
{
	local line=$1
	shift
	FSCK_AFTER_RUN=0
	start_guest "$@"
	await_line "$line"
	pull_plug
	finish_guest
	expect_status 124
}

# expect_replay_only IMG: e2fsck -fy replays IMG's journal and has nothing else to fix,
# then e2fsck -fn finds it clean (a journalled file system after a power cut).
expect_replay_only()
{
	local img=$1 rc
	e2fsck -fy "$img" > "$T/fsck-y.log" 2>&1
	rc=$?
	[[ $rc -le 1 ]] || fail "e2fsck -fy exit status $rc: $(tail -n 3 "$T/fsck-y.log")"
	grep -q 'recovering journal' "$T/fsck-y.log" || fail "e2fsck found no journal to replay"
	grep -q 'Fix? yes' "$T/fsck-y.log" &&
		fail "e2fsck -fy had more to fix than the replay: $(grep 'Fix? yes' "$T/fsck-y.log" | head -n 3 | tr '\n' ' ')"
	e2fsck -fn "$img" > "$T/fsck-n.log" 2>&1 ||
		fail "e2fsck -fn after the replay: $(grep -v '^Pass\|^e2fsck' "$T/fsck-n.log" | head -n 3 | tr '\n' ' ')"
}

await_prompt() { _dialog_await text "$PROMPT"; }
await_text() { _dialog_await text "$1"; }
await_line() { _dialog_await line "$1"; }

finish_guest()
{
	exec {DIALOG_FD}>&-
	wait "$DIALOG_PID"
	STATUS=$(cat "$T/status" 2> /dev/null)
	tr -d '\r' < "$T/out.raw" > "$OUT"
	fsck_disks
	check_kernel_reports
}

# Ctrl-C for the command running in the foreground: it must stop with status 130 and the
# shell go on. Then the guest powers off (the dialog ends) and its status is checked.
interrupt_expect_130()
{
	send '\003'
	await_prompt
	send 'echo rc=$?\r'
	await_line 'rc=130'
	await_prompt
	send 'poweroff 0\r'
	finish_guest
	expect_status 0
	expect_line 'rc=130'
}
