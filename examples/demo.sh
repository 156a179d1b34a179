# cgwb demo: per-cgroup writeback in a few seconds. `make run` plays it before the prompt
# (skip it with `make run DEMO=0`); copy it as a starting point for your own workloads.
#
# Two groups write to the ext2 disk on /mnt at the same time; A's writeback goes through an
# io.max limit of 4 MiB/s, B's does not. Each group's IO is charged to itself (io.stat),
# its pages to its own memory cgroup (memory.stat), and each has its own writeback context
# (/sys/kernel/debug/bdi/254:0/wb_stats).
echo "== cgwb demo: groups A (io.max wbps=4M) and B (unlimited) write 16 MiB each"
if [ ! -d /mnt/lost+found ]; then
	echo "(no ext2 disk on /mnt: the demo needs one; make run attaches build/disk.img)"
	exit 0
fi
cd /sys/fs/cgroup
echo "+memory +io" > cgroup.subtree_control
mkdir -p A B
echo "254:0 wbps=4194304" > A/io.max
cgexec -g A dd if=/dev/zero of=/mnt/demo-a bs=1M count=16 conv=fsync 2> /tmp/demo-a &
cgexec -g B dd if=/dev/zero of=/mnt/demo-b bs=1M count=16 conv=fsync 2> /tmp/demo-b &
for t in 1 2 3; do
	sleep 1
	echo "-- after ${t}s"
	echo "A io.stat:  $(cat A/io.stat)"
	echo "B io.stat:  $(cat B/io.stat)"
done
wait
echo "-- done"
echo "A dd: $(cat /tmp/demo-a)"
echo "B dd: $(cat /tmp/demo-b)"
echo "A io.stat:  $(cat A/io.stat)"
echo "B io.stat:  $(cat B/io.stat)"
for g in A B; do
	echo "$g memory.stat:" $(grep -E '^(file|file_dirty|file_writeback) ' $g/memory.stat)
done
rm -f /mnt/demo-a /mnt/demo-b /tmp/demo-a /tmp/demo-b
cd /
echo "== try: cat /sys/kernel/debug/bdi/254:0/wb_stats, ls /sys/fs/cgroup/A, help"
