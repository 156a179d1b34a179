# make stress: pages leaving the cache while reclaim holds them, for SECONDS. On every CPU a
# writer rewrites its file with dd (truncating it first), cuts it short with truncate and
# removes it every fourth round, while a dropper empties the page cache every half second
# and a reader reads the files back: truncation, unlink and reclaim meet on every page.
# Prints "stress-truncate: N rounds" at the end, "stress-truncate: BAD ..." on a wrong size.
end=$(( $(date +%s) + SECONDS ))
ncpu=$(grep -c '^processor' /proc/cpuinfo)
w=0
while [ $w -lt $((ncpu + 1)) ]; do
	w=$((w + 1))
	(
		r=0
		while [ $(date +%s) -lt $end ]; do
			r=$((r + 1))
			dd if=/dev/zero of=/mnt/t$w bs=64k count=32 2> /dev/null
			truncate -s $((r % 7 * 40000)) /mnt/t$w
			size=$(stat -c %s /mnt/t$w)
			[ "$size" = $((r % 7 * 40000)) ] || echo "stress-truncate: BAD /mnt/t$w size $size"
			[ $((r % 4)) -eq 0 ] && rm -f /mnt/t$w
		done
		echo "stress-truncate: writer $w $r rounds"
	) &
done
( while [ $(date +%s) -lt $end ]; do cat /mnt/t* > /dev/null 2>&1; done ) &
drops=0
while [ $(date +%s) -lt $end ]; do
	echo 3 > /proc/sys/vm/drop_caches
	drops=$((drops + 1))
	sleep 0.5
done
wait
rm -f /mnt/t*
echo "stress-truncate: $drops rounds"
