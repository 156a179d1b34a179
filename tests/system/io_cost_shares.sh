# io.cost's shares on a disk QEMU makes the bottleneck (throttling.bps-write, 16 MB/s) with
# the model set to it: two groups of weights 100 and 300 each keep 16 64 KiB writes in
# flight (blkbench) for 16 MiB; when the first is done, io.stat's wbytes of the other is
# about 3 times its own (Linux 6.1's rule of hweights; a wide band, for QEMU). Counted in
# bytes, so the guest's sense of time does not matter. The precise figures are the
# simulator's (tests/host/sim/test_sim_iocost.c) and make bench's (scripts/bench/iocost).
truncate -s 64M "$T/a.raw"
guest_script <<'GUEST'
cd /sys/fs/cgroup
echo +io > cgroup.subtree_control
mkdir A B
echo "254:0 ctrl=user model=linear wbps=16777216 wseqiops=4096 wrandiops=4096" > io.cost.model
echo "254:0 enable=1 rpct=95 rlat=50000 wpct=95 wlat=50000" > io.cost.qos
echo 100 > A/io.weight
echo 300 > B/io.weight
run()
{
	cgexec -g $1 blkbench -q 16 -b 64K -n 256 write /dev/vda > /dev/null
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
run_guest --disk "$T/a.raw,throttling.bps-write=16777216" --timeout 120
expect_status 0
expect_no_log 'Kernel panic|kernel BUG|WARNING'
expect_line 'first=B'
a=$(grep -m1 '^254:0 ' "$OUT" | sed 's/.* wbytes=\([0-9]*\) .*/\1/')
b=$(grep '^254:0 ' "$OUT" | sed -n '2s/.* wbytes=\([0-9]*\) .*/\1/p')
expect_num "A's wbytes" "$a" -gt 0
expect_num "B's wbytes" "$b" -eq 16777216
ratio=$((b * 100 / a))
expect_num "B/A x 100" "$ratio" -ge 200
expect_num "B/A x 100" "$ratio" -le 450
