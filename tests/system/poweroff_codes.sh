# poweroff CODE reaches the host exactly, including 1 (which QEMU's own error status
# would otherwise hide) and 255; a bad code is a usage error that does not power off.
for code in 1 255; do
	guest_script <<GUEST
poweroff $code
GUEST
	run_guest
	expect_status $code
done
guest_script <<'GUEST'
poweroff banana
echo still running $?
poweroff 9
GUEST
run_guest
expect_status 9
expect_line 'still running 2'
expect_output 'usage: poweroff'
