# A program writing through a shared mapping in a group at memory.max 64M: 256 MiB mapped,
# every page written, msync'd and read back (tests/programs/mmapw.c on the disk, put there by
# scripts/bench/mmap-writer). Keys: `peak_kb` (the peak of the group's file_dirty +
# file_writeback, which the program reads every MiB it writes), `ms` (the program's time),
# `oom_kill` (memory.events). The mapping writer is throttled as a write(2) writer is.
now_ms()
{
	read up rest < /proc/uptime
	s=${up%.*}
	f=${up#*.}
	echo $((s * 1000 + ${f#0} * 10))
}
cg=/sys/fs/cgroup/P
mkdir -p $cg
echo 64M > $cg/memory.max
t0=$(now_ms)
sh -c "echo \$\$ > $cg/cgroup.procs; /mnt/bin/mmapw write /mnt/map 256 $cg/memory.stat > /tmp/mmapw.out"
t1=$(now_ms)
peak=0
while read a b c d; do
	[ "$a" = peak ] && peak=$d
done < /tmp/mmapw.out
oom=0
while read k v; do
	[ "$k" = oom_kill ] && oom=$v
done < $cg/memory.events
echo "RESULT peak_kb=$peak ms=$((t1 - t0)) oom_kill=$oom"
