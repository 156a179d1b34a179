# Faults deliberately triggered at boot (cgwb.selftest=) are reported with the vector,
# error code, RIP, CR2, registers and a symbolised backtrace; in test runs
# (cgwb.panic=poweroff) QEMU then exits with the panic status 112.
KERNEL_REPORTS_EXPECTED=1 # the faults, warnings and hung tasks asked for
check_report()
{
	local what=$1 vector=$2 func=$3
	run_guest --no-script --append "cgwb.selftest=$what"
	expect_status 112
	expect_output "cgwb: exception $vector "
	expect_output 'RIP: [0-9a-f]{16} '
	expect_output 'CR0: [0-9a-f]{16} CR2: '
	expect_output 'Call Trace:'
	expect_output "$func"
	expect_output 'kernel_init\+0x'
	expect_log 'cgwb: poweroff 112'
}
check_report pagefault 14 'selftest_pagefault\+0x'
expect_output 'page fault at address 0x10 \(not present, write\)'
check_report ud 6 'selftest_run\+0x'
check_report gp 13 'selftest_gp\+0x'
check_report divide 0 'selftest_divide\+0x'

run_guest --no-script --append "cgwb.selftest=panic"
expect_status 112
expect_output 'Kernel panic - not syncing: selftest: requested panic'
expect_output 'Call Trace:'

run_guest --no-script --append "cgwb.selftest=bug"
expect_status 112
expect_output 'Kernel panic - not syncing: kernel BUG at init/selftest.c:[0-9]+'

# a warning is reported and the kernel carries on
printf 'poweroff 4\r' > "$T/stdin"
run_guest --no-script --append "cgwb.selftest=warn" --stdin "$T/stdin"
expect_status 4
expect_output 'WARNING: init/selftest.c:[0-9]+'

# a task asleep uninterruptibly for longer than hung_task_timeout_secs is reported with its
# stack, and the kernel carries on (the shell still answers)
start_guest --no-script --append "cgwb.selftest=hung hung_task_timeout_secs=1"
await_text 'INFO: task selftest-hung:'
send 'echo still-here\r'
await_line 'still-here'
send 'poweroff 5\r'
finish_guest
expect_status 5
expect_output 'INFO: task selftest-hung:[0-9]+ blocked for more than [0-9]+ seconds'
expect_output 'selftest_hung_task\+0x'
expect_output '__schedule\+0x' # names with two underscores are in the symbol table
