# Many small files: 500 files of 4 KiB written, synced, then read back.
now_ms()
{
	read up rest < /proc/uptime
	s=${up%.*}
	f=${up#*.}
	echo $((s * 1000 + ${f#0} * 10))
}
mkdir -p /mnt/small
t0=$(now_ms)
i=0
while [ $i -lt 500 ]; do
	dd if=/dev/zero of=/mnt/small/f$i bs=4096 count=1 2> /dev/null
	i=$((i + 1))
done
t1=$(now_ms)
sync
t2=$(now_ms)
n=0
for f in /mnt/small/*; do
	n=$((n + 1))
done
echo "RESULT create_ms=$((t1 - t0)) sync_ms=$((t2 - t1)) files=$n"
