# Foreign writes, the foreign-writes workload: group A writes a 32 MiB file and syncs,
# the page cache is dropped (pages only), then group B rewrites the whole file in place
# once a second, ten times. Linux moves the inode to B's writeback (inode_switch_wbs) once
# most of the last two seconds of its writeback were B's; until then B's rewrites are
# written back as A's. Figures: the bytes charged to A after B starts, the rounds whose
# data A was still charged for, B's total time, and (where tracefs has the event) the switches
# and the time from B's first rewrite to the file's switch.
# Without the cache drop both kernels leave the inode with A (the pages are A's).
now_ms()
{
	read up rest < /proc/uptime
	s=${up%.*}
	f=${up#*.}
	echo $((s * 1000 + ${f#0} * 10))
}
cg=/sys/fs/cgroup
mkdir -p $cg/A $cg/B
# wbytes GROUP: bytes written for the group (io.stat, summed over devices)
wbytes()
{
	n=0
	while read dev rest; do
		for w in $rest; do
			case $w in wbytes=*) n=$((n + ${w#wbytes=})) ;; esac
		done
	done < $cg/$1/io.stat
	echo $n
}
ev=/sys/kernel/tracing/events/writeback/inode_switch_wbs
[ -d $ev ] && echo 1 > $ev/enable
sh -c "echo \$\$ > $cg/A/cgroup.procs; dd if=/dev/zero of=/mnt/shared bs=1M count=32 2> /dev/null; sync"
echo 1 > /proc/sys/vm/drop_caches
a0=$(wbytes A)
b0=$(wbytes B)
t0=$(now_ms)
a_prev=$a0
a_rounds=0
for round in 1 2 3 4 5 6 7 8 9 10; do
	sh -c "echo \$\$ > $cg/B/cgroup.procs; dd if=/dev/zero of=/mnt/shared bs=1M count=32 conv=notrunc 2> /dev/null; sync"
	a=$(wbytes A)
	# a round whose data went to A (metadata writes of a few KiB do not count)
	[ $((a - a_prev)) -gt 1048576 ] && a_rounds=$((a_rounds + 1))
	a_prev=$a
	sleep 1
done
t1=$(now_ms)
a1=$(wbytes A)
b1=$(wbytes B)
echo "RESULT rewrites_ms=$((t1 - t0)) a_wbytes_kb=$(((a1 - a0) / 1024)) b_wbytes_kb=$(((b1 - b0) / 1024)) a_charged_rounds=$a_rounds"
if [ -d $ev ]; then
	echo 0 > $ev/enable
	n=0
	ino=$(stat -c %i /mnt/shared)
	switch_ms=
	while read line; do
		case $line in
		*inode_switch_wbs*)
			n=$((n + 1))
			echo "switch: ${line#*inode_switch_wbs: }"
			# the file's first switch: the event's timestamp (seconds since boot, as
			# /proc/uptime) after B's first rewrite started
			case $line in
			*" ino=$ino "*)
				if [ -z "$switch_ms" ]; then
					ts=${line%%: inode_switch_wbs*}
					ts=${ts##* }
					us=${ts#*.}
					while [ "${us#0}" != "$us" ]; do us=${us#0}; done
					switch_ms=$(( ${ts%.*} * 1000 + ${us:-0} / 1000 - t0 ))
				fi ;;
			esac ;;
		esac
	done < /sys/kernel/tracing/trace
	echo "RESULT switches=$n"
	[ -n "$switch_ms" ] && echo "RESULT switch_ms=$switch_ms"
fi
