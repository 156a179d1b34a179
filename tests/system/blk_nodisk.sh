# No disk attached: the kernel boots cleanly and dd says there is no such device.
guest_script <<'GUEST'
lspci
cat /proc/diskstats
dd if=/dev/vda of=/dev/null count=1
echo read=$?
poweroff 0
GUEST
run_guest
expect_status 0
expect_line "dd: failed to open '/dev/vda': No such file or directory"
expect_line 'read=1'
expect_output '^00:00\.0 0600: 8086:1237 Host bridge$'
expect_no_output 'virtio'
expect_no_log 'Kernel panic|WARNING|virtio'
