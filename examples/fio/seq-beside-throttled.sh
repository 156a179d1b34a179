# Set up before seq-beside-throttled.fio: group "slow" at io.max wbps=4 MiB/s on the disk.
dev=254:0
[ -f /sys/block/vda/dev ] && read dev < /sys/block/vda/dev
mkdir -p /sys/fs/cgroup/slow /sys/fs/cgroup/fast
echo "$dev wbps=4194304" > /sys/fs/cgroup/slow/io.max
