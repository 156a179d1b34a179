# Removing a group does not lift its io.max for what it leaves behind. Three groups in
# turn, each limited to 512 KiB/s, write 3 MiB and are removed at once; then sync. Their
# 9 MiB (counted in io.stat of their parent P, which stays) cannot reach the disk faster
# than the three limits together allow: 6 s and more, within 2 % (blk-throttle's first
# slice is a burst of 0.1 s in 6). Before, the same sync took a hundredth of a second.
# The guest's clock measures; nothing here waits for time.
PATH=$PATH:/usr/sbin:/sbin
mke2fs -q -F -t ext2 "$T/disk.img" 64M > /dev/null 2>&1 || fail "mke2fs"
guest_script <<'GUEST'
cd /sys/fs/cgroup
echo "+memory +io" > cgroup.subtree_control
mkdir P
echo "+memory +io" > P/cgroup.subtree_control
read t0 idle < /proc/uptime
for i in 1 2 3; do
	mkdir P/g$i
	echo "254:0 wbps=524288" > P/g$i/io.max
	cgexec -g P/g$i dd if=/dev/zero of=/mnt/f$i bs=1M count=3 status=none
	rmdir P/g$i
	echo rmdir$i=$?
done
sync
read t1 idle < /proc/uptime
echo T0 $t0
echo T1 $t1
echo P-io: $(cat P/io.stat)
ls P
poweroff 0
GUEST
run_guest --disk "$T/disk.img" --timeout 120
expect_status 0
for i in 1 2 3; do expect_line "rmdir$i=0"; done
expect_no_output '^g[123]$'
t0=$(output_value T0)
t1=$(output_value T1)
bytes=$(sed -n 's/^P-io: 254:0 .*wbytes=\([0-9]*\).*/\1/p' "$OUT")
expect_num "P's io.stat wbytes" "$bytes" -ge $((9 << 20))
expect_num "P's io.stat wbytes" "$bytes" -lt $((10 << 20))
if [[ -n $t0 && -n $t1 && -n $bytes ]]; then
	rate=$(awk -v b="$bytes" -v a="$t0" -v z="$t1" 'BEGIN { printf "%.0f", b / (z - a) }')
	echo "  removed groups: $bytes bytes in $(awk -v a="$t0" -v z="$t1" 'BEGIN { print z - a }') s," \
		"$rate B/s (io.max 3 x 524288)"
	expect_num "the removed groups' write rate (B/s)" "$rate" -le $((3 * 524288 * 102 / 100))
else
	fail "no uptime or io.stat figures"
fi
