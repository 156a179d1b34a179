# Sequential buffered write of 128 MiB: the dirtying rate (MiB/s while dd runs), the total
# with sync, and the peak of Dirty in /proc/meminfo sampled while it runs.
now_ms()
{
	read up rest < /proc/uptime
	s=${up%.*}
	f=${up#*.}
	echo $((s * 1000 + ${f#0} * 10))
}
dirty_kb()
{
	while read name value unit; do
		case $name in Dirty:) echo $value; return ;; esac
	done < /proc/meminfo
}
rm -f /tmp/seq.done /tmp/seq.peak
# the sampler stops when dd is done (kill -0 is no probe on cgwb: every signal kills)
(
	peak=0
	while [ ! -f /tmp/seq.done ]; do
		d=$(dirty_kb)
		if [ "$d" -gt "$peak" ]; then
			peak=$d
			echo $peak > /tmp/seq.peak
		fi
		sleep 0.2
	done
) &
t0=$(now_ms)
dd if=/dev/zero of=/mnt/seq bs=1M count=128 2> /dev/null
t1=$(now_ms)
sync
t2=$(now_ms)
touch /tmp/seq.done
wait
read peak < /tmp/seq.peak
ms=$((t1 - t0))
[ $ms -gt 0 ] || ms=1
echo "RESULT dirty_mib_s=$((128 * 1000 / ms)) total_sync_ms=$((t2 - t0)) peak_dirty_kb=$peak"
