# virtio-blk reads: a random image made on the host reads back in the guest with the same
# SHA-256, whole and by ranges, buffered and O_DIRECT, aligned and odd-sized; O_DIRECT
# refuses unaligned sizes; lspci, /proc/diskstats and /sys/block/vda/stat show the disk.
head -c 16M /dev/urandom > "$T/a.raw"
whole=$(sha256sum < "$T/a.raw" | cut -d' ' -f1)
range=$(dd if="$T/a.raw" bs=1M skip=2 count=4 2>/dev/null | sha256sum | cut -d' ' -f1)
odd=$(dd if="$T/a.raw" bs=1000 skip=7 count=9 2>/dev/null | sha256sum | cut -d' ' -f1)
guest_script <<'GUEST'
sha256sum /dev/vda
dd if=/dev/vda bs=1M skip=2 count=4 | sha256sum
dd if=/dev/vda bs=1M skip=2 count=4 iflag=direct | sha256sum
dd if=/dev/vda bs=1000 skip=7 count=9 | sha256sum
dd if=/dev/vda of=/dev/null bs=1000 count=1 iflag=direct
echo direct-unaligned=$?
dd if=/dev/vda of=/dev/null bs=1M skip=15 count=8
echo past-end=$?
lspci
cat /proc/diskstats
cat /sys/block/vda/stat
poweroff 0
GUEST
run_guest --disk "$T/a.raw"
expect_status 0
expect_line "$whole  /dev/vda"
expect_count 2 "^$range  -\$"
expect_line "$odd  -"
expect_line '4+0 records in'
expect_output '^4194304 bytes \(4\.2 MB, 4\.0 MiB\) copied, [0-9.]+ s, [0-9.]+ [kMG]?B/s$'
expect_line "dd: error reading '/dev/vda': Invalid argument"
expect_line 'direct-unaligned=1'
expect_line '1+0 records in'
expect_line 'past-end=0'
expect_output '^00:[0-9a-f]{2}\.0 0100: 1af4:1001 SCSI storage controller \[virtio-pci vda\]$'
expect_output '^ 254 +0 vda [0-9]+ [0-9]+ [0-9]+ '
expect_output '^ +[0-9]+( +[0-9]+){16}$'
expect_log 'virtio_blk: vda: 32768 sectors \(16 MiB\), 512-byte blocks, read-write, write cache, indirect'
expect_no_log 'Kernel panic|WARNING'
