# Isolation: group A limited to 4 MiB/s of writes (io.max wbps), group B unlimited, each
# writing 32 MiB with fsync at the same time; then the same with memory.max 64M on both.
# B's time should not follow A's limit.
now_ms()
{
	read up rest < /proc/uptime
	s=${up%.*}
	f=${up#*.}
	echo $((s * 1000 + ${f#0} * 10))
}
dev=254:0
[ -f /sys/block/vda/dev ] && read dev < /sys/block/vda/dev
cg=/sys/fs/cgroup
mkdir -p $cg/A $cg/B
echo "$dev wbps=4194304" > $cg/A/io.max

# writer GROUP FILE: 32 MiB with fsync from a shell moved into GROUP; prints its time
writer()
{
	sh -c "echo \$\$ > $cg/$1/cgroup.procs
		t0=\$(cat /proc/uptime)
		dd if=/dev/zero of=$2 bs=1M count=32 conv=fsync 2> /dev/null
		t1=\$(cat /proc/uptime)
		echo \"\$t0 \$t1\"" > /tmp/$1.times
}
ms()
{
	read a rest b rest2 < /tmp/$1.times
	s0=${a%.*}; f0=${a#*.}; s1=${b%.*}; f1=${b#*.}
	echo $(( (s1 * 1000 + ${f1#0} * 10) - (s0 * 1000 + ${f0#0} * 10) ))
}
round()
{
	writer A /mnt/a$1 &
	pa=$!
	writer B /mnt/b$1 &
	pb=$!
	wait $pa
	wait $pb
	echo "RESULT $2a_ms=$(ms A) $2b_ms=$(ms B)"
}
round 1 io_
echo 64M > $cg/A/memory.max
echo 64M > $cg/B/memory.max
round 2 io_mem_
