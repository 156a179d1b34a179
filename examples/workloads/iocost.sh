# io.cost's shares, work conservation and pressure: the disk is made the bottleneck
# (QEMU's throttling.bps-write on the drive, IOCOST_BPS bytes/s, 32 MB/s by default) and
# io.cost's model is set to it, with latency targets for vrate (the same lines for Linux
# and cgwb). Each writer is dd bs=1M conv=fsync from a shell moved into its group.
#   w2:   weights 100 and 300, 64 MiB each at once: `w2_ratio_pm`, the bytes the second
#         had written when the first ended over the first's, per mille
#   w8:   weights 100..800, 64 MiB each at once: `w8_max_err_pm`, the largest deviation of
#         a group's share (when the first ended) from its weight's fraction, per mille
#   alone: weight 300 alone, 160 MiB (so that the first second, when dd dirties pages
#         faster than the flusher starts writing them, weighs little): `alone_pm`, its rate
#         over the same write's with io.cost off, per mille; weight 25: `low_alone_pm`
#   isolation: weight 400 writes 64 MiB alone, then again while weight 25 writes 96 MiB:
#         `heavy_ratio_pm`, its rate beside over alone, per mille; then, while weight 25
#         still writes, `psi_busy_avg10_x100` (its io.pressure some avg10 x 100) and
#         `psi_idle_total` (an idle group's io.pressure some total)
# Times from `date +%s%N` where date has %N, else /proc/uptime (10 ms steps).
cg=/sys/fs/cgroup
bps=${IOCOST_BPS:-33554432}
dev=254:0
[ -f /sys/block/vda/dev ] && read dev < /sys/block/vda/dev
echo "$dev ctrl=user model=linear rbps=$bps rseqiops=8192 rrandiops=8192 wbps=$bps wseqiops=8192 wrandiops=8192" > $cg/io.cost.model
echo "$dev enable=1 ctrl=user rpct=95 rlat=50000 wpct=95 wlat=50000" > $cg/io.cost.qos
cat $cg/io.cost.model $cg/io.cost.qos

# group NAME WEIGHT
group()
{
	mkdir -p $cg/$1
	echo $2 > $cg/$1/io.weight
}
# wbytes GROUP: io.stat's wbytes of GROUP on the disk
wbytes()
{
	for kv in $(cat $cg/$1/io.stat); do
		case $kv in
		wbytes=*) echo ${kv#wbytes=}; return ;;
		esac
	done
	echo 0
}
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
# write GROUP MIB [TAG]: dd of MIB MiB into /mnt/GROUP from a shell in GROUP, stamped; the
# first writer of TAG to end records every group of TAG's wbytes in /tmp/TAG.first
write()
{
	sh -c "echo \$\$ > $cg/$1/cgroup.procs
		{ date +%s%N 2> /dev/null; cat /proc/uptime; } > /tmp/$1.t0
		dd if=/dev/zero of=/mnt/$1 bs=1M count=$2 conv=fsync 2> /dev/null
		{ date +%s%N 2> /dev/null; cat /proc/uptime; } > /tmp/$1.t1"
	if [ -n "$3" ] && mkdir /tmp/$3.lock 2> /dev/null; then
		for g in $(cat /tmp/$3.groups); do
			echo "$g $(wbytes $g)"
		done > /tmp/$3.first
	fi
}
ms()
{
	echo $(($(stamp_ms /tmp/$1.t1) - $(stamp_ms /tmp/$1.t0)))
}
# w2
group w100 100
group w300 300
echo "w100 w300" > /tmp/w2.groups
write w100 64 w2 &
write w300 64 w2 &
wait
cat /tmp/w2.first
a=0
b=0
while read g v; do
	case $g in w100) a=$v ;; w300) b=$v ;; esac
done < /tmp/w2.first
w2_ratio_pm=$((b * 1000 / a))
rm -f /mnt/w100 /mnt/w300
sync

# w8
groups=
i=1
while [ $i -le 8 ]; do
	group g$i $((i * 100))
	groups="$groups g$i"
	i=$((i + 1))
done
echo $groups > /tmp/w8.groups
for g in $groups; do
	write $g 64 w8 &
done
wait
cat /tmp/w8.first
sum=0
while read g v; do
	sum=$((sum + v))
done < /tmp/w8.first
w8_max_err_pm=0
while read g v; do
	i=${g#g}
	# share / (i * 100 / 3600), per mille
	r=$((v * 36000 / (sum * i)))
	e=$((r - 1000))
	[ $e -lt 0 ] && e=$((0 - e))
	echo "iocost: g$i share/fraction ${r} per mille"
	[ $e -gt $w8_max_err_pm ] && w8_max_err_pm=$e
done < /tmp/w8.first
rm -f /mnt/g*
sync

# alone: against the disk's own speed, io.cost off, measured the same way in this boot
# (a ratio of two times, whatever the guest's clock makes of a second under TCG)
echo "$dev enable=0" > $cg/io.cost.qos
write w300 160
base_ms=$(ms w300)
rm -f /mnt/w300
sync
echo "$dev enable=1" > $cg/io.cost.qos
write w300 160
alone_pm=$((base_ms * 1000 / $(ms w300)))
rm -f /mnt/w300
sync
group w25 25
write w25 160
low_alone_pm=$((base_ms * 1000 / $(ms w25)))
rm -f /mnt/w25
sync

# isolation
group w400 400
write w400 64
heavy_alone_ms=$(ms w400)
rm -f /mnt/w400
sync
mkdir -p $cg/idle
write w25 96 &
write w400 64
heavy_beside_ms=$(ms w400)
# pressure while weight 25 still writes, held back by io.cost; the idle group's
echo "w25 io.pressure:"
cat $cg/w25/io.pressure
echo "idle io.pressure:"
cat $cg/idle/io.pressure
read some a10 rest < $cg/w25/io.pressure
a10=${a10#avg10=}
frac=${a10#*.}
psi_busy_avg10_x100=$((${a10%.*} * 100 + ${frac#0}))
read some a10 a60 a300 total < $cg/idle/io.pressure
psi_idle_total=${total#total=}
wait
heavy_ratio_pm=$((heavy_alone_ms * 1000 / heavy_beside_ms))
rm -f /mnt/w25 /mnt/w400
sync
cat $cg/io.stat
echo "RESULT w2_ratio_pm=$w2_ratio_pm w8_max_err_pm=$w8_max_err_pm alone_pm=$alone_pm low_alone_pm=$low_alone_pm heavy_ratio_pm=$heavy_ratio_pm psi_busy_avg10_x100=$psi_busy_avg10_x100 psi_idle_total=$psi_idle_total"
