# Per-cgroup writeback in the guest: two groups write at once, A through an io.max wbps
# limit. Each group's writeback is charged to itself (io.stat, memory.stat, wb_stats), A's
# rate is near its limit while B is not held back, and the filesystem is clean afterwards.
PATH=$PATH:/usr/sbin:/sbin
mke2fs -q -F -t ext2 "$T/disk.img" 256M > /dev/null 2>&1 || fail "mke2fs"
guest_script <<'GUEST'
cd /sys/fs/cgroup
echo "+memory +io" > cgroup.subtree_control
mkdir A B
echo "254:0 wbps=2097152" > A/io.max
cgexec -g A dd if=/dev/zero of=/mnt/a bs=1M count=6 conv=fsync 2> /tmp/a.log &
cgexec -g B dd if=/dev/zero of=/mnt/b bs=1M count=24 conv=fsync 2> /tmp/b.log &
wait
echo A: $(cat /tmp/a.log)
echo B: $(cat /tmp/b.log)
echo A-io: $(cat A/io.stat)
echo B-io: $(cat B/io.stat)
echo A-mem: $(cat A/memory.stat)
echo B-mem: $(cat B/memory.stat)
cat /sys/kernel/debug/bdi/254:0/wb_stats
poweroff 0
GUEST
run_guest --disk "$T/disk.img" --timeout 120
expect_status 0

# io.stat: each group's writeback IO is its own (data; ext2 metadata goes through the root)
a_w=$(sed -n 's/^A-io: 254:0 .*wbytes=\([0-9]*\).*/\1/p' "$OUT")
b_w=$(sed -n 's/^B-io: 254:0 .*wbytes=\([0-9]*\).*/\1/p' "$OUT")
expect_num "A's io.stat wbytes" "$a_w" -ge $((6 << 20))
expect_num "A's io.stat wbytes" "$a_w" -lt $((7 << 20))
expect_num "B's io.stat wbytes" "$b_w" -ge $((24 << 20))
expect_num "B's io.stat wbytes" "$b_w" -lt $((25 << 20))

# A's dd (dirtying plus fsync) was held to its 2 MiB/s limit: 6 MiB take 3 s at least. How
# close to the limit it runs is the simulator's to check (a busy host only slows a guest).
a_s=$(sed -n 's/^A: .* copied, \([0-9.]*\) s,.*/\1/p' "$OUT")
b_s=$(sed -n 's/^B: .* copied, \([0-9.]*\) s,.*/\1/p' "$OUT")
awk -v s="$a_s" 'BEGIN { exit !(s >= 2.5) }' || fail "A took ${a_s}s for 6 MiB at 2 MiB/s"
# B was not held to A's rate (that would take 12 s for its 24 MiB)
awk -v s="$b_s" 'BEGIN { exit !(s > 0 && s < 10) }' || fail "B took ${b_s}s for 24 MiB"

# memory.stat: after the fsyncs nothing is dirty or under writeback, and the pages are charged
for g in A B; do
	line=$(grep "^$g-mem:" "$OUT")
	[[ $line =~ " file_dirty 0 " ]] || fail "$g's memory.stat file_dirty is not 0: $line"
	[[ $line =~ " file_writeback 0 " ]] || fail "$g's memory.stat file_writeback is not 0"
	[[ $line =~ " file "([0-9]+) ]] && [[ ${BASH_REMATCH[1]} -gt 0 ]] || fail "$g has no file pages"
done

# wb_stats: the root wb and one wb per group, each having written its own data
expect_group_wbs 6144 24576

e2fsck -fn "$T/disk.img" > "$T/fsck.log" 2>&1 || fail "e2fsck: $(tail -n 3 "$T/fsck.log")"
