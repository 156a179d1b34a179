# fio (Debian's, static, on the disk: scripts/bench/fio puts it there): 4 KiB random writes
# with pwrite over a 64 MiB file, fsync every 32 writes: the IOPS (fio's terse field 49)
# and the bandwidth (KiB/s, field 48).
/mnt/bin/fio --name=rnd --filename=/mnt/fio-rnd --size=64M --bs=4k --rw=randwrite \
	--ioengine=psync --fsync=32 --minimal > /tmp/fio.out
echo "RESULT rnd_iops=$(cut -d ';' -f 49 /tmp/fio.out) rnd_kib_s=$(cut -d ';' -f 48 /tmp/fio.out)"
