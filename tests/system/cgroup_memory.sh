# The memory controller on an ext2 disk: a group's memory.current grows with what it
# writes, memory.stat shows its dirty pages until sync, and a group limited by memory.max
# writing 32 times its limit stays at or below it (its clean pages reclaimed, its dirty
# ones written first), counting memory.events max. Then e2fsck finds the disk clean.
mke2fs -q -F -t ext2 "$T/disk.img" 128M > /dev/null 2>&1 || fail "mke2fs"
guest_script <<'GUEST'
[ -e /mnt/lost+found ] || mount /dev/vda /mnt
cd /sys/fs/cgroup
echo +memory > cgroup.subtree_control
mkdir W L
echo W-before=$(cat W/memory.current)
cgexec -g W dd if=/dev/zero of=/mnt/w bs=1M count=8 2> /dev/null
echo W-after=$(cat W/memory.current)
echo W-stat: $(cat W/memory.stat)
sync
echo W-synced: $(cat W/memory.stat)
echo 2M > L/memory.max
echo L-max=$(cat L/memory.max)
cgexec -g L dd if=/dev/zero of=/mnt/l bs=64K count=1024 2> /dev/null &
job=$!
sleep 0.1
ps
for i in $(seq 1 30); do
	echo L-current=$(cat L/memory.current)
	sleep 0.05
done
wait $job
echo dd-status=$?
echo L-current=$(cat L/memory.current)
echo L-peak=$(cat L/memory.peak)
echo L-events: $(cat L/memory.events)
echo L-stat: $(cat L/memory.stat)
echo 512K > L/memory.max
echo lower=$?
echo L-lowered=$(cat L/memory.current)
ls -l /mnt/l
umount /mnt
echo umount=$?
poweroff 0
GUEST
run_guest --disk "$T/disk.img" --timeout 120
expect_status 0
expect_no_log 'Kernel panic|kernel BUG|WARNING'
expect_line 'W-before=0'
w_after=$(sed -n 's/^W-after=//p' "$OUT")
expect_num W-after "$w_after" -ge $((8 << 20))
for key in anon file file_dirty file_writeback active_file inactive_file unevictable pgscan pgsteal; do
	grep -q "^W-stat: .*\b$key [0-9]" "$OUT" || fail "memory.stat has no $key"
done
w_dirty=$(sed -n 's/^W-stat: .*file_dirty \([0-9]*\).*/\1/p' "$OUT")
expect_num W-file_dirty "$w_dirty" -gt 0
expect_output '^W-synced: .* file_dirty 0 file_writeback 0 '
expect_line 'L-max=2097152'
# the limit holds all along
n=0
while read -r v; do
	expect_num L-current "$v" -le $((2 << 20))
	n=$((n + 1))
done < <(sed -n 's/^L-current=//p' "$OUT")
[[ $n -ge 30 ]] || fail "only $n samples of L's memory.current"
expect_output '^ +[0-9]+ [SRD] +[0-9]+ +[0-9:]+ /L +dd$'
expect_line 'dd-status=0'
peak=$(sed -n 's/^L-peak=//p' "$OUT")
expect_num L-peak "$peak" -le $((2 << 20))
expect_num L-peak "$peak" -gt $((1 << 20))
max_events=$(sed -n 's/^L-events: .*max \([0-9]*\) .*/\1/p' "$OUT")
expect_num L-events-max "$max_events" -gt 0
expect_output '^L-events: low 0 high 0 max [0-9]+ oom 0 oom_kill 0 oom_group_kill 0$'
steal=$(sed -n 's/^L-stat: .*pgsteal \([0-9]*\).*/\1/p' "$OUT")
expect_num L-pgsteal "$steal" -gt 0
expect_line 'lower=0'
lowered=$(sed -n 's/^L-lowered=//p' "$OUT")
expect_num L-lowered "$lowered" -le $((512 << 10))
expect_output '^-rw-r--r-- 1 root root 67108864 .* /mnt/l$'
expect_line 'umount=0'
e2fsck -fn "$T/disk.img" > "$T/fsck.log" 2>&1 || fail "e2fsck: $(tail -n 3 "$T/fsck.log")"
