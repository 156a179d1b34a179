# io.cost's shares on a disk QEMU makes the bottleneck (throttling.bps-write, 16 MB/s) with
# the model set to it: two groups of weights 100 and 300 each keep 16 64 KiB writes in
# flight (blkbench) for 16 MiB; when the first is done, io.stat's wbytes of the other is
# about 3 times its own (Linux 6.1's rule of hweights; a wide band, for QEMU). Counted in
# bytes, so the guest's sense of time does not matter. The precise figures are the
# simulator's (tests/host/sim/test_sim_iocost.c) and make bench's (scripts/bench/iocost).
# ext4_io_cost runs it on files of an ext4 disk (TEST_FS): each group dirties 16 MiB of
# its own file, then both fsync it at once, so the two wbs' writeback competes from the
# start (with dd conv=fsync the first to dirty writes alone for a while).
# system-test: alone (its shares need the host's CPUs: tests/system/run)
disk=$T/a.raw
dirty=
writer='blkbench -q 16 -b 64K -n 256 write /dev/vda > /dev/null'
if [[ $TEST_FS == ext2 ]]; then
	truncate -s 64M "$disk"
else
	disk=$T/disk.img
	test_mkfs "$disk" 256M
	dirty='for g in A B; do cgexec -g $g dd if=/dev/zero of=/mnt/$g bs=1M count=16 2> /dev/null; done'
	writer='sync /mnt/$1'
fi
guest_script <<GUEST
cd /sys/fs/cgroup
echo "+memory +io" > cgroup.subtree_control
mkdir A B
echo "254:0 ctrl=user model=linear wbps=16777216 wseqiops=4096 wrandiops=4096" > io.cost.model
echo "254:0 enable=1 rpct=95 rlat=50000 wpct=95 wlat=50000" > io.cost.qos
echo 100 > A/io.weight
echo 300 > B/io.weight
$dirty
run()
{
	cgexec -g \$1 $writer
	if mkdir /tmp/first 2> /dev/null; then
		echo first=\$1
		cat A/io.stat B/io.stat
	fi
}
run A &
run B &
wait
echo end
poweroff 0
GUEST
run_guest --disk "$disk,throttling.bps-write=16777216" --timeout 120
expect_status 0
expect_line end
expect_no_log 'Kernel panic|kernel BUG|WARNING'
expect_line 'first=B'
a=$(grep -m1 '^254:0 ' "$OUT" | sed 's/.* wbytes=\([0-9]*\) .*/\1/')
b=$(grep '^254:0 ' "$OUT" | sed -n '2s/.* wbytes=\([0-9]*\) .*/\1/p')
expect_num "A's wbytes" "$a" -gt 0
expect_num "B's wbytes" "$b" -eq 16777216
ratio=$((b * 100 / a))
expect_num "B/A x 100" "$ratio" -ge "${IOCOST_MIN_RATIO:-200}"
expect_num "B/A x 100" "$ratio" -le 450
