# A kernel that stops making progress (interrupts off, so no tick and no hung-task report)
# is killed at the timeout, and run-qemu first prints where every CPU was, by name: the
# spinning function on the CPU that stalled. (The test waits for the timeout: that is what
# it tests. Short ones.)
guest_script <<'GUEST'
echo never reached
GUEST
run_guest --append "cgwb.selftest=stall" --timeout 12
expect_status 124
expect_log "selftest: triggering 'stall'"
expect_no_output 'never reached'
grep -q '^run-qemu: timed out after 12s; where the CPUs were:' "$T/qemu.err" ||
	fail "no report of the CPUs after the timeout: $(head -n 3 "$T/qemu.err")"
grep -Eq '^run-qemu: +CPU 0: RIP [0-9a-f]+$' "$T/qemu.err" || fail "no RIP line for CPU 0"
grep -Eq '^run-qemu: +[0-9a-f]+ .*selftest_stall \(selftest.c:[0-9]+\)' "$T/qemu.err" ||
	fail "the stalled CPU's RIP is not named selftest_stall: $(grep -A1 'CPU 0' "$T/qemu.err" | tail -n 1)"

# A guest where every task waits (here on a long sleep) still ticks: the NMI run-qemu sends
# before the kill has the kernel print every task's state and stack (as SysRq-t), and
# run-qemu prints them: the sleeping task, in the function it sleeps in.
guest_script <<'GUEST'
echo waiting
sleep 1000
GUEST
run_guest --timeout 12
expect_status 124
expect_line waiting
grep -q '^run-qemu: and every task, as the kernel saw them' "$T/qemu.err" ||
	fail "no task states after the timeout: $(tail -n 3 "$T/qemu.err")"
grep -Eq '^run-qemu: .* task sleep +pid [0-9]+ +S on CPU' "$T/qemu.err" || fail "the sleeping task is not listed"
grep -Eq '^run-qemu: .*\] cmd_sleep\+0x' "$T/qemu.err" || fail "its stack does not name cmd_sleep"
