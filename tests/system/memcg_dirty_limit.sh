# The memcg dirty domain: a group with memory.max = 64M writing 128 MiB holds its dirty
# plus writeback pages to its domain's limit, about 20 % of its memory (Linux's dirty_ratio
# applied to the group), never the global pool; it needs no oom and e2fsck finds the
# disk clean. The guest samples memory.stat as fast as it can while dd runs, and keeps
# the peak. ext4_memcg_dirty_limit runs it on ext4 (TEST_FS).
test_mkfs "$T/disk.img" 512M
guest_script <<'GUEST'
[ -e /mnt/lost+found ] || mount /dev/vda /mnt
cd /sys/fs/cgroup
echo "+memory +io" > cgroup.subtree_control
mkdir M
echo 64M > M/memory.max
rm -f /tmp/dd.done
(cgexec -g M dd if=/dev/zero of=/mnt/m bs=1M count=128 conv=fsync 2> /dev/null; echo > /tmp/dd.done) &
peak=0
samples=0
while [ ! -e /tmp/dd.done ]; do
	s=0
	n=0
	for x in $(grep -E '^file_(dirty|writeback) ' M/memory.stat); do
		if [ $n = 1 ]; then s=$((s + x)); n=0; else n=1; fi
	done
	[ $s -gt $peak ] && peak=$s
	samples=$((samples + 1))
done
wait
echo peak=$peak
echo samples=$samples
echo M-events: $(cat M/memory.events)
ls -l /mnt/m
umount /mnt
echo umount=$?
poweroff 0
GUEST
run_guest --disk "$T/disk.img" --memory 512M --timeout 300
expect_status 0
expect_no_log 'Kernel panic|kernel BUG|WARNING'
peak=$(sed -n 's/^peak=//p' "$OUT")
samples=$(sed -n 's/^samples=//p' "$OUT")
expect_num samples "$samples" -ge 20
# the domain's limit is 20 % of some 64 MiB (less what is not page cache): 13.4 MB with 5 %
# over it; the global pool would allow about 90 MB
expect_num peak "$peak" -le $(( (64 << 20) / 5 * 105 / 100 ))
# the samples saw the throttled regime: above the freerun ceiling's half
expect_num peak "$peak" -ge $(( (64 << 20) / 5 / 2 ))
expect_output '^M-events: low 0 high 0 max [0-9]+ oom 0 oom_kill 0 oom_group_kill 0$'
expect_output '^-rw-r--r-- 1 root root 134217728 .* /mnt/m$'
expect_line 'umount=0'
e2fsck -fn "$T/disk.img" > "$T/fsck.log" 2>&1 || fail "e2fsck: $(tail -n 3 "$T/fsck.log")"
