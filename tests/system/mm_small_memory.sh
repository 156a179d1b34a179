# A 16 MiB machine runs the demo, and big dd records work once the page cache has filled
# memory: a 2 MiB buffer needs no free block of 512 contiguous pages (kvmalloc). e2fsck
# checks the disk afterwards (lib.sh).
mke2fs -q -F -t ext2 "$T/disk.img" 64M > /dev/null 2>&1 || fail "mke2fs"
{
	sed 's/^rm -f /sync; rm -f /' "$SYS_ROOT/examples/demo.sh"
	cat <<'GUEST'
echo demo-done
dd if=/dev/zero of=/mnt/fill bs=64K count=512 2> /dev/null
cat /mnt/fill /dev/vda > /dev/null
echo free-before: $(grep MemFree /proc/meminfo)
dd if=/dev/zero of=/mnt/big bs=2M count=4 conv=fsync
echo dd-rc=$?
dd if=/mnt/big of=/dev/null bs=1M
echo dd-read-rc=$?
poweroff 0
GUEST
} | guest_script
run_guest --disk "$T/disk.img" --memory 16M --timeout 120
expect_status 0
expect_no_log 'Kernel panic|kernel BUG|WARNING'
expect_line 'demo-done'
expect_output '^A dd: 16\+0 records in'
expect_output '^B dd: 16\+0 records in'
expect_line '4+0 records out'
expect_line 'dd-rc=0'
expect_line '8+0 records in'
expect_line 'dd-read-rc=0'
