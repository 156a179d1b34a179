# io.cost's shares on ext4 (io_cost_shares.sh on files instead of the raw disk): a Debian
# ext4 image with its journal, on a disk QEMU makes the bottleneck (throttling.bps-write,
# 16 MB/s) with io.cost's model set to it; groups of weights 100 and 300 each write 16 MiB
# with dd conv=fsync at once, so both wbs' writeback competes. When the first is done,
# io.stat's wbytes of the other is about a third of its own (a wide band, for QEMU), and
# the heavier group is first. Mounted data=writeback: with data=ordered a commit writes
# both groups' data and each fsync waits for it (docs/ext4.md, "Not yet"), so there the
# order is reported, not judged. Counted in bytes, not time; e2fsck -fn clean after.
TEST_FS=ext4
TEST_FS_OPTS=data=writeback
test_mkfs "$T/disk.img" 256M
guest_script <<'GUEST'
cd /sys/fs/cgroup
echo "+memory +io" > cgroup.subtree_control
mkdir A B
echo "254:0 ctrl=user model=linear wbps=16777216 wseqiops=4096 wrandiops=4096" > io.cost.model
echo "254:0 enable=1 rpct=95 rlat=50000 wpct=95 wlat=50000" > io.cost.qos
echo 100 > A/io.weight
echo 300 > B/io.weight
sync
run()
{
	cgexec -g $1 dd if=/dev/zero of=/mnt/$1 bs=1M count=16 conv=fsync 2> /dev/null
	if mkdir /tmp/first 2> /dev/null; then
		echo first=$1
		cat A/io.stat B/io.stat
	fi
}
run A &
run B &
wait
echo end
poweroff 0
GUEST
run_guest --disk "$T/disk.img,throttling.bps-write=16777216" --timeout 120
expect_status 0
expect_line end
expect_no_log 'Kernel panic|kernel BUG|WARNING'
expect_line 'first=B'
a=$(grep -m1 '^254:0 ' "$OUT" | sed 's/.* wbytes=\([0-9]*\) .*/\1/')
b=$(grep '^254:0 ' "$OUT" | sed -n '2s/.* wbytes=\([0-9]*\) .*/\1/p')
expect_num "A's wbytes" "$a" -gt 0
expect_num "B's wbytes" "$b" -ge 16777216
ratio=$((b * 100 / ${a:-1}))
expect_num "B/A x 100" "$ratio" -ge 200
expect_num "B/A x 100" "$ratio" -le 450
echo "  A ${a} B ${b} bytes when B was done (B/A x 100 = $ratio)"
