# Small fsync latency: group L writes 4 KiB and fsyncs it every 0.1 s (a log: block i of a
# file at round i), FSYNC_SAMPLES (30) times alone, then as many times while group W,
# limited to 4 MiB/s of writes (io.max, or io.cost with FSYNC_W_LIMIT=iocost), writes
# 128 MiB (32 s of its writeback). A
# journal that commits W's data with L's metadata makes L wait for W's limit. Each latency
# is dd's own time of the write and its fsync (microseconds on both kernels; /proc/uptime
# has 10 ms steps). Keys: `alone_p50_us`, `alone_p90_us`, `alone_max_us`, the same with
# `beside_`, `w_mib` (what W had written when L's last sample ended) and `w_ms` (from W's
# start until its 128 MiB were on disk: 32 s at its limit, less if its data got past it
# for good: what a commit takes from it at once must be paid back before it writes more).
# A stall hides in the percentiles (the writer issues no fsync while one waits): the max
# shows it.
cg=/sys/fs/cgroup
samples=${FSYNC_SAMPLES:-30}
dev=254:0
[ -f /sys/block/vda/dev ] && read dev < /sys/block/vda/dev
mkdir -p $cg/L $cg/W
# W's limit: io.max (the default), or with FSYNC_W_LIMIT=iocost io.cost's budget, its model
# saying the disk writes 4 MiB/s with vrate held at 100 % (W, alone at work, gets about it)
if [ "${FSYNC_W_LIMIT:-iomax}" = iocost ]; then
	echo "$dev ctrl=user model=linear rbps=4194304 rseqiops=1000000 rrandiops=1000000 wbps=4194304 wseqiops=1000000 wrandiops=1000000" > $cg/io.cost.model
	echo "$dev enable=1 ctrl=user min=100.00 max=100.00" > $cg/io.cost.qos
else
	echo "$dev wbps=4194304" > $cg/W/io.max
fi
echo $$ > $cg/L/cgroup.procs

# stamp: t = nanoseconds now, without starting a process (which a busy TCG guest may take
# milliseconds to run): cgwb's date has %N; busybox's has not, and Linux's timer_list says
# "now at N nsecs" in its third line
stamp()
{
	if [ "$ns" = 1 ]; then
		t=$(date +%s%N)
		return
	fi
	while read a b c rest; do
		[ "$a $b" = "now at" ] && { t=$c; return; }
	done < /proc/timer_list
}
# fsync_at N: block N of the log written and fsync'd; prints the microseconds from before
# dd starts to after it ends (both kernels pay for starting dd)
fsync_at()
{
	stamp
	t0=$t
	dd if=/dev/zero of=/mnt/log bs=4096 count=1 seek=$1 conv=notrunc,fsync 2> /dev/null
	stamp
	echo $(((t - t0) / 1000))
}
ns=0
case $(date +%N 2> /dev/null) in [0-9]*) ns=1 ;; esac
# pct P FILE: the P-th percentile of the numbers in FILE (the value at rank ceil(P% of n))
pct()
{
	n=$(wc -l < $2)
	k=$(((n * $1 + 99) / 100))
	sort -n $2 | head -n $k | tail -n 1
}
# figures NAME: the keys of series NAME
figures()
{
	echo "$1_p50_us=$(pct 50 /tmp/$1) $1_p90_us=$(pct 90 /tmp/$1) $1_max_us=$(pct 100 /tmp/$1)"
}
# series NAME: $samples latencies into /tmp/NAME, one every 0.1 s
series()
{
	: > /tmp/$1
	j=0
	while [ $j -lt $samples ]; do
		fsync_at $((round + j)) >> /tmp/$1
		j=$((j + 1))
		sleep 0.1
	done
	round=$((round + samples))
	echo "fsync: $1 us: $(tr '\n' ' ' < /tmp/$1)"
}
round=0
series alone
stamp
w0=$t
sh -c "echo \$\$ > $cg/W/cgroup.procs; dd if=/dev/zero of=/mnt/w bs=1M count=128 2> /dev/null" &
sleep 1
series beside
w=0
for x in $(grep "^$dev " $cg/W/io.stat); do case $x in wbytes=*) w=${x#wbytes=} ;; esac; done
wait
sync
stamp
echo "RESULT $(figures alone) $(figures beside) w_mib=$((w / 1048576)) w_ms=$(((t - w0) / 1000000))"
