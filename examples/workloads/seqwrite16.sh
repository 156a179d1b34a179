# A short sequential buffered write: 16 MiB with dd, then sync. The milliseconds from
# /proc/uptime (busybox's date has no %N), so the figures have a 10 ms resolution.
now_ms()
{
	read up rest < /proc/uptime
	s=${up%.*}
	f=${up#*.}
	echo $((s * 1000 + ${f#0} * 10))
}
t0=$(now_ms)
dd if=/dev/zero of=/mnt/seq16 bs=1M count=16 2> /dev/null
t1=$(now_ms)
sync
t2=$(now_ms)
echo "RESULT write_ms=$((t1 - t0)) write_sync_ms=$((t2 - t0))"
