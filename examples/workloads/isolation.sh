# Isolation, the isolation workload: group A limited to 4 MiB/s of writes (io.max
# wbps), group B unlimited, 96 MiB each with dd bs=1M conv=fsync. Per round: B writes once
# to warm up (its wb's bandwidth and ratelimit estimates), then ISO_WRITES (5) times alone,
# as many times while A writes its 96 MiB (A's 24 s cover them), and as many times alone
# again once A is done. A write of B lasts about a second, and under TCG one such time
# moves with the host's load by up to a factor of 2, so each side counts the median of its
# writes. Round 1 without memory.max, round 2 with memory.max 128M on both. Keys (io_ then
# io_mem_): `b_alone_ms` and `b_ms` (medians alone and beside A), `b_ratio_pm` (B's rate
# beside A / alone, per mille), `a_ms`, `a_kib_s`; each write's time on `isolation:` lines.
# Times from `date +%s%N` where date has %N, else /proc/uptime (10 ms steps).
cg=/sys/fs/cgroup
writes=${ISO_WRITES:-5}
dev=254:0
[ -f /sys/block/vda/dev ] && read dev < /sys/block/vda/dev
mkdir -p $cg/A $cg/B
echo "$dev wbps=4194304" > $cg/A/io.max

# write GROUP FILE: 96 MiB with fsync from a shell in GROUP, stamped before and after
write()
{
	sh -c "echo \$\$ > $cg/$1/cgroup.procs
		{ date +%s%N 2> /dev/null; cat /proc/uptime; } > /tmp/$1.t0
		dd if=/dev/zero of=$2 bs=1M count=96 conv=fsync 2> /dev/null
		{ date +%s%N 2> /dev/null; cat /proc/uptime; } > /tmp/$1.t1"
}
# stamp_ms FILE: milliseconds from a stamp's `date +%s%N` and /proc/uptime lines
stamp_ms()
{
	{ read a; read b rest; } < $1
	case $a in
	*[!0-9]*|'')
		s=${b%.*}
		f=${b#*.}
		echo $((s * 1000 + ${f#0} * 10)) ;;
	*) echo $((a / 1000000)) ;;
	esac
}
# ms GROUP: the milliseconds of GROUP's last write
ms()
{
	echo $(($(stamp_ms /tmp/$1.t1) - $(stamp_ms /tmp/$1.t0)))
}
# median N...: the middle value (the upper one of an even count)
median()
{
	echo "$@" | tr ' ' '\n' | sort -n | head -n $(($# / 2 + 1)) | tail -n 1
}
# b_writes PHASE: B writes $writes times, each file removed after (no sync: beside A it
# would wait for A's pages); prints the times, and logs them in /tmp/b.log
b_writes()
{
	times=
	i=0
	while [ $i -lt $writes ]; do
		write B /mnt/b
		times="$times $(ms B)"
		rm /mnt/b
		i=$((i + 1))
	done
	echo "isolation: B $1 ms:$times" >> /tmp/b.log
	echo $times
}
# round PREFIX: B alone before and after A's write (the host's speed drifts over a boot,
# by a third at times: what drifts during the round then counts on both sides), B beside A
round()
{
	write B /mnt/warm
	rm /mnt/warm
	sync
	before=$(b_writes alone)
	sync
	write A /mnt/a &
	beside=$(b_writes beside)
	wait
	a=$(ms A)
	rm /mnt/a
	sync
	after=$(b_writes alone)
	cat /tmp/b.log
	rm /tmp/b.log
	alone=$(median $before $after)
	beside=$(median $beside)
	echo "RESULT $1b_alone_ms=$alone $1b_ms=$beside $1b_ratio_pm=$((alone * 1000 / beside)) $1a_ms=$a $1a_kib_s=$((96 * 1024 * 1000 / a))"
}
round io_
echo 128M > $cg/A/memory.max
echo 128M > $cg/B/memory.max
round io_mem_
