# O_DIRECT: 32 MiB to a file, then 32 MiB to the raw device (after umount, at 512 MiB in:
# the image is thrown away after the boot), each record straight to the disk.
now_ms()
{
	read up rest < /proc/uptime
	s=${up%.*}
	f=${up#*.}
	echo $((s * 1000 + ${f#0} * 10))
}
t0=$(now_ms)
dd if=/dev/zero of=/mnt/direct bs=1M count=32 oflag=direct 2> /dev/null
t1=$(now_ms)
umount /mnt
t2=$(now_ms)
dd if=/dev/zero of=/dev/vda bs=1M seek=512 count=32 oflag=direct 2> /dev/null
t3=$(now_ms)
f_ms=$((t1 - t0))
d_ms=$((t3 - t2))
[ $f_ms -gt 0 ] || f_ms=1
[ $d_ms -gt 0 ] || d_ms=1
echo "RESULT file_mib_s=$((32 * 1000 / f_ms)) raw_mib_s=$((32 * 1000 / d_ms))"
