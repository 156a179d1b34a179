# Many groups at once, the many-groups workload: N cgroups start together, each
# writing M MiB to its own file with dd bs=1M conv=fsync, for each NxM of GROUPS_CONFIGS
# (default: one writer of 256 MiB alone, then 16x16, 64x4, 256x1). Per configuration:
# `gNxM_mib_s` (N x M MiB over the time until the last writer ends), `gNxM_spread_pm`
# (last completion time / first, per mille: 1000 is perfectly fair), `gNxM_first_ms`,
# `gNxM_last_ms`. Completion times count from the moment all writers are released at once.
# Times from `date +%s%N` where date has %N (cgwb), else from /proc/uptime (10 ms steps).
cg=/sys/fs/cgroup

# ns "LINE": nanoseconds from a writer's `date +%s%N; cat /proc/uptime` lines
ns()
{
	case $1 in
	*[!0-9]*|'')
		s=${2%.*}
		f=${2#*.}
		echo $(( (s * 100 + ${f#0}) * 10000000 )) ;;
	*) echo $1 ;;
	esac
}
stamp()
{
	date +%s%N 2> /dev/null
	cat /proc/uptime
}

# one N M: N groups of one writer of M MiB each
one()
{
	rm -f /tmp/go /tmp/r.* /tmp/e.*
	i=1
	while [ $i -le $1 ]; do
		mkdir -p $cg/g$i
		sh -c "echo \$\$ > $cg/g$i/cgroup.procs
			echo > /tmp/r.$i
			while [ ! -e /tmp/go ]; do sleep 0.02; done
			dd if=/dev/zero of=/mnt/f$i bs=1M count=$2 conv=fsync 2> /dev/null
			{ date +%s%N 2> /dev/null; cat /proc/uptime; } > /tmp/e.$i" &
		i=$((i + 1))
	done
	i=1
	while [ $i -le $1 ]; do
		while [ ! -e /tmp/r.$i ]; do sleep 0.02; done
		i=$((i + 1))
	done
	stamp > /tmp/t0
	echo > /tmp/go
	wait
	{ read a; read b rest; } < /tmp/t0
	t0=$(ns "$a" "$b")
	first=
	last=0
	i=1
	while [ $i -le $1 ]; do
		{ read a; read b rest; } < /tmp/e.$i
		t=$(( ($(ns "$a" "$b") - t0) / 1000000 ))
		[ -z "$first" ] || [ $t -lt $first ] && first=$t
		[ $t -gt $last ] && last=$t
		i=$((i + 1))
	done
	[ $first -gt 0 ] || first=1
	echo "RESULT g$1x$2_mib_s=$(( $1 * $2 * 1000 / last )) g$1x$2_spread_pm=$(( last * 1000 / first ))" \
		"g$1x$2_first_ms=$first g$1x$2_last_ms=$last"
}

# clean N: the files and groups of a configuration gone before the next one
clean()
{
	i=1
	while [ $i -le $1 ]; do
		rm -f /mnt/f$i
		rmdir $cg/g$i
		i=$((i + 1))
	done
	sync
}

prev=0
for c in ${GROUPS_CONFIGS:-1x256 16x16 64x4 256x1}; do
	clean $prev
	one ${c%x*} ${c#*x}
	prev=${c%x*}
done
