# Isolation, the workload of cgwb's issue 8: group A limited to 4 MiB/s of writes (io.max
# wbps), group B unlimited, each writing 96 MiB with fsync at the same time; B also alone.
# Then the same with memory.max 128M on both. B's ratio (its time alone / its time beside
# A, per mille) should not follow A's limit; A should keep its 4 MiB/s.
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
		dd if=/dev/zero of=$2 bs=1M count=96 conv=fsync 2> /dev/null
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
	writer B /mnt/alone$1
	alone=$(ms B)
	rm -f /mnt/alone$1
	writer A /mnt/a$1 &
	pa=$!
	writer B /mnt/b$1 &
	pb=$!
	wait $pa
	wait $pb
	a=$(ms A)
	b=$(ms B)
	echo "RESULT $2a_ms=$a $2b_ms=$b $2b_alone_ms=$alone $2b_ratio_pm=$((alone * 1000 / b)) $2a_kib_s=$((96 * 1024 * 1000 / a))"
	rm -f /mnt/a$1 /mnt/b$1
}
round 1 io_
echo 128M > $cg/A/memory.max
echo 128M > $cg/B/memory.max
round 2 io_mem_
