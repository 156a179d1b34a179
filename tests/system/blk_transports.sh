# Both ways QEMU offers virtio-blk: a modern-only device (disable-legacy=on, id 1042) with
# MSI-X as vda, and a transitional one with MSI-X turned off (vectors=0: INTx through the
# IOAPIC) as vdb, which is also the second disk (254:16).
head -c 4M /dev/urandom > "$T/m.raw"
head -c 4M /dev/urandom > "$T/i.raw"
m=$(sha256sum < "$T/m.raw" | cut -d' ' -f1)
i=$(sha256sum < "$T/i.raw" | cut -d' ' -f1)
guest_script <<'GUEST'
lspci
sha256sum /dev/vda /dev/vdb
dd if=/dev/vdb of=/dev/vda bs=256K count=4 seek=4 oflag=direct conv=fsync status=none
echo copy=$?
blkbench -q 16 -n 2000 randread /dev/vdb
cat /proc/diskstats
poweroff 0
GUEST
run_guest -- -drive "if=none,id=m0,format=raw,file=$T/m.raw" \
	-device virtio-blk-pci,drive=m0,disable-legacy=on \
	-drive "if=none,id=i0,format=raw,file=$T/i.raw" -device virtio-blk-pci,drive=i0,vectors=0
expect_status 0
expect_output '^00:[0-9a-f]{2}\.0 0100: 1af4:1042 SCSI storage controller \[virtio-pci vda\]$'
expect_output '^00:[0-9a-f]{2}\.0 0100: 1af4:1001 SCSI storage controller \[virtio-pci vdb\]$'
expect_line "$m  /dev/vda"
expect_line "$i  /dev/vdb"
expect_line 'copy=0'
expect_output '^randread /dev/vdb: bs=4096 depth=16 ios=2000 time=[0-9.]+ s iops=[0-9]+ '
expect_output '^ 254 +0 vda '
expect_output '^ 254 +16 vdb '
expect_log 'vda: .*MSI-X'
expect_log 'vdb: .*INTx'
cmp -i 0:1048576 -n 1048576 "$T/i.raw" "$T/m.raw" || fail "copy differs"
