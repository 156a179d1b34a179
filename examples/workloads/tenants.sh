# Many slow tenants: N groups t1..tN, each held to 1 MiB/s of writes by io.max, each
# dirtying 20 MiB with dd (no fsync), and an unlimited group B writing 96 MiB with dd
# conv=fsync, TENANTS_BESIDE (3) times in a row, from 4 s after they started. For each N of
# TENANTS_CONFIGS (default "12 32 128"), in one boot. B first writes once to warm up, then
# TENANTS_ALONE (3) times alone. Keys per N (tN_): `b_alone_ms` and `b_ms` (beside the
# tenants), medians, `b_ratio_pm` (B's rate beside them / alone, per mille), and the
# tenants' write rates from io.stat over TENANTS_WINDOW (12) seconds that contain B's
# writes: `slow_min_kib_s`, `slow_max_kib_s`, `slow_sum_kib_s`; `slow_cpu_pm`, the CPU
# time (all CPUs, /proc/stat) the tenants take alone over the 3 s before B starts (after a
# first second in which they dirty their allowance at full speed), per mille. B's write
# takes a few hundred milliseconds, the CPU's figure counts 10 ms ticks: each is a median
# or a span long enough to say something. Times from `date +%s%N` where date has %N, else
# /proc/uptime.
cg=/sys/fs/cgroup
dev=254:0
[ -f /sys/block/vda/dev ] && read dev < /sys/block/vda/dev
window=${TENANTS_WINDOW:-12}
mkdir -p $cg/B

# now_ms: milliseconds since boot, or of the epoch (only differences count)
now_ms()
{
	n=$(date +%s%N 2> /dev/null)
	case $n in
	*[!0-9]*|'')
		read u rest < /proc/uptime
		s=${u%.*}
		f=${u#*.}
		echo $((s * 1000 + ${f#0} * 10)) ;;
	*) echo $((n / 1000000)) ;;
	esac
}
# cpu_ticks: "busy total" of all CPUs from /proc/stat (USER_HZ ticks; iowait is idle)
cpu_ticks()
{
	read c user nice system idle iowait irq softirq steal rest < /proc/stat
	busy=$((user + nice + system + irq + softirq + steal))
	echo "$busy $((busy + idle + iowait))"
}
# busy_pm BUSY0 TOTAL0 BUSY1 TOTAL1: the busy share between two cpu_ticks, per mille
busy_pm()
{
	echo $((($3 - $1) * 1000 / ($4 - $2)))
}
# b_ms FILE: 96 MiB with fsync from a shell in B; prints the milliseconds it took
b_ms()
{
	t0=$(now_ms)
	sh -c "echo \$\$ > $cg/B/cgroup.procs
		dd if=/dev/zero of=$1 bs=1M count=96 conv=fsync 2> /dev/null"
	t1=$(now_ms)
	echo $((t1 - t0))
}
# median N...: the middle value (the upper one of an even count)
median()
{
	echo "$@" | tr ' ' '\n' | sort -n | head -n $(($# / 2 + 1)) | tail -n 1
}
# wbytes GROUP: bytes the group has written to the disk (0 before its first IO)
wbytes()
{
	w=0
	while read d rest; do
		[ "$d" = "$dev" ] || continue
		w=${rest#*wbytes=}
		w=${w%% *}
	done < $cg/$1/io.stat
	echo $w
}

b_ms /mnt/warm > /dev/null
rm /mnt/warm
sync
alone=
i=0
while [ $i -lt ${TENANTS_ALONE:-3} ]; do
	alone="$alone $(b_ms /mnt/b)"
	rm /mnt/b
	sync
	i=$((i + 1))
done
echo "tenants: B alone ms:$alone"
alone=$(median $alone)

for n in ${TENANTS_CONFIGS:-12 32 128}; do
	i=1
	while [ $i -le $n ]; do
		mkdir -p $cg/t$i
		echo "$dev wbps=1048576" > $cg/t$i/io.max
		sh -c "echo \$\$ > $cg/t$i/cgroup.procs
			dd if=/dev/zero of=/mnt/t$i bs=1M count=20 2> /dev/null" &
		i=$((i + 1))
	done
	# the CPU the tenants take alone, from their second second (the first dirties their
	# allowance at full speed) until B starts, 4 s in
	sleep 1
	c0=$(cpu_ticks)
	sleep 3
	c1=$(cpu_ticks)
	cpu_pm=$(busy_pm $c0 $c1)
	w0=
	i=1
	while [ $i -le $n ]; do
		w0="$w0 $(wbytes t$i)"
		i=$((i + 1))
	done
	s0=$(now_ms)
	beside=
	i=0
	while [ $i -lt ${TENANTS_BESIDE:-3} ]; do
		beside="$beside $(b_ms /mnt/b)"
		rm /mnt/b
		i=$((i + 1))
	done
	b=$(median $beside)
	while [ $(($(now_ms) - s0)) -lt $((window * 1000)) ]; do
		sleep 0.2
	done
	s1=$(now_ms)
	min=
	max=0
	sum=0
	i=1
	for w in $w0; do
		r=$(( ($(wbytes t$i) - w) * 1000 / 1024 / (s1 - s0) ))
		[ -z "$min" ] || [ $r -lt $min ] && min=$r
		[ $r -gt $max ] && max=$r
		sum=$((sum + r))
		i=$((i + 1))
	done
	echo "tenants: $n beside ms:$beside"
	echo "RESULT t${n}_b_alone_ms=$alone t${n}_b_ms=$b t${n}_b_ratio_pm=$((alone * 1000 / b))" \
		"t${n}_slow_min_kib_s=$min t${n}_slow_max_kib_s=$max t${n}_slow_sum_kib_s=$sum" \
		"t${n}_slow_cpu_pm=$cpu_pm"
	wait
	i=1
	while [ $i -le $n ]; do
		rm /mnt/t$i
		rmdir $cg/t$i
		i=$((i + 1))
	done
	sync
done
