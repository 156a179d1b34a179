# Errors: unknown commands give 127 and sh's message; bad arguments a usage line and 2;
# a failed redirection 1; syntax errors 2. The shell keeps going after each.
guest_script <<'GUEST'
nosuchcmd arg
echo rc=$?
sleep
echo rc=$?
sleep abc
echo rc=$?
echo hi > /no/such/dir/file
echo rc=$?
kill 99999
echo rc=$?
poweroff 0
GUEST
run_guest
expect_status 0
expect_line 'cgwb: nosuchcmd: command not found'
expect_output 'usage: sleep'
expect_count 2 '^rc=2$'
expect_line 'rc=127'
expect_count 2 '^rc=1$'
