# The memcg dirty limit: a group with memory.max 64M writes 256 MiB; its time, and the
# peak of its file_dirty (memory.stat), sampled every 0.2 s.
now_ms()
{
	read up rest < /proc/uptime
	s=${up%.*}
	f=${up#*.}
	echo $((s * 1000 + ${f#0} * 10))
}
cg=/sys/fs/cgroup/M
mkdir -p $cg
echo 64M > $cg/memory.max
rm -f /tmp/m.done /tmp/m.peak
(
	peak=0
	while [ ! -f /tmp/m.done ]; do
		while read k v; do
			case $k in file_dirty) d=$v ;; esac
		done < $cg/memory.stat
		if [ "$d" -gt "$peak" ]; then
			peak=$d
			echo $peak > /tmp/m.peak
		fi
		sleep 0.2
	done
) &
t0=$(now_ms)
sh -c "echo \$\$ > $cg/cgroup.procs; dd if=/dev/zero of=/mnt/m bs=1M count=256 2> /dev/null"
t1=$(now_ms)
touch /tmp/m.done
wait
peak=0
[ -f /tmp/m.peak ] && read peak < /tmp/m.peak
echo "RESULT write_ms=$((t1 - t0)) peak_file_dirty_kb=$((peak / 1024))"
