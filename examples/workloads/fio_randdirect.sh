# fio (Debian's, static, on the disk: scripts/bench/fio puts it there): 4 KiB random direct
# writes (O_DIRECT, no page cache) with pwrite over a 64 MiB file, laid out first, then
# 4 KiB random direct reads of it: the IOPS of each (fio's terse fields 49 and 8).
/mnt/bin/fio --name=rnd --filename=/mnt/fio-direct --size=64M --bs=4k --rw=randwrite \
	--ioengine=psync --direct=1 --minimal > /tmp/fio.out
/mnt/bin/fio --name=rnd --filename=/mnt/fio-direct --size=64M --bs=4k --rw=randread \
	--ioengine=psync --direct=1 --minimal > /tmp/fio-read.out
echo "RESULT dwrite_iops=$(cut -d ';' -f 49 /tmp/fio.out) dread_iops=$(cut -d ';' -f 8 /tmp/fio-read.out)"
