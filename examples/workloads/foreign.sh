# Foreign writes: group A writes a 32 MiB file, then group B rewrites it in place. Linux
# moves the inode to B's writeback (inode_switch_wbs) once B dirties most of it; bytes of
# B's rewrite written back as A's are misattributed. Figures: B's rewrite time with sync,
# A's and B's io.stat wbytes during it, and (where tracefs has the event) the switches.
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
a0=$(wbytes A)
b0=$(wbytes B)
t0=$(now_ms)
sh -c "echo \$\$ > $cg/B/cgroup.procs; dd if=/dev/zero of=/mnt/shared bs=1M count=32 conv=notrunc 2> /dev/null; sync"
t1=$(now_ms)
a1=$(wbytes A)
b1=$(wbytes B)
echo "RESULT rewrite_sync_ms=$((t1 - t0)) a_wbytes_kb=$(((a1 - a0) / 1024)) b_wbytes_kb=$(((b1 - b0) / 1024))"
if [ -d $ev ]; then
	echo 0 > $ev/enable
	n=0
	while read line; do
		case $line in *inode_switch_wbs*) n=$((n + 1)) ;; esac
	done < /sys/kernel/tracing/trace
	echo "RESULT switches=$n"
fi
