# Many writers at once, each in its own cgroup: WRITERS dd's of MB MiB each (buffered), all
# started together, then sync. Prints the seconds from the first start to the end of the
# sync, from /proc/uptime.
now_ms()
{
	read up rest < /proc/uptime
	s=${up%.*}
	f=${up#*.}
	echo $((s * 1000 + ${f#0} * 10))
}
cd /sys/fs/cgroup
echo "+memory +io" > cgroup.subtree_control
for i in $(seq 1 $WRITERS); do mkdir g$i; done
t0=$(now_ms)
for i in $(seq 1 $WRITERS); do
	cgexec -g g$i dd if=/dev/zero of=/mnt/p$i bs=1M count=$MB 2> /dev/null &
done
wait
t1=$(now_ms)
sync
t2=$(now_ms)
echo "RESULT writers=$WRITERS mb=$MB dirty_ms=$((t1 - t0)) total_ms=$((t2 - t0))"
rm /mnt/p*
sync
