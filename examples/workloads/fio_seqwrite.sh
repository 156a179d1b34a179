# fio (Debian's, static, on the disk: scripts/bench/fio puts it there): a sequential buffered
# write of 256 MiB in 1 MiB records with psync, fsync'd at its end: the bandwidth (KiB/s,
# fio's terse field 48) and the runtime (ms, field 50).
/mnt/bin/fio --name=seq --filename=/mnt/fio-seq --size=256M --bs=1M --rw=write \
	--ioengine=psync --end_fsync=1 --minimal > /tmp/fio.out
echo "RESULT seq_kib_s=$(cut -d ';' -f 48 /tmp/fio.out) seq_ms=$(cut -d ';' -f 50 /tmp/fio.out)"
