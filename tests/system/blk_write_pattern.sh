# virtio-blk writes: the guest copies ranges of a host-made random disk (vdb) onto vda with
# direct, buffered, odd-sized and byte-sized records; the host compares byte for byte and
# checks that nothing else was touched. Buffered writes are durable only once synced
# (conv=fsync), as on Linux.
head -c 8M /dev/urandom > "$T/src.raw"
truncate -s 16M "$T/dst.raw"
guest_script <<'GUEST'
dd if=/dev/vdb of=/dev/vda bs=1M count=4 oflag=direct conv=fsync
echo copy1=$?
dd if=/dev/vdb of=/dev/vda bs=64K skip=64 seek=128 count=64 conv=fsync
echo copy2=$?
dd if=/dev/vdb of=/dev/vda bs=1000 skip=5 seek=13007 count=3 conv=fsync
echo copy3=$?
echo hello | dd of=/dev/vda bs=1 seek=15000001 conv=fsync
echo copy4=$?
dd if=/dev/zero of=/dev/vda bs=1000 count=1 oflag=direct
echo direct-unaligned=$?
dd if=/dev/zero of=/dev/vda bs=1M seek=15 count=2
echo past-end=$?
poweroff 0
GUEST
run_guest --disk "$T/dst.raw" --disk "$T/src.raw"
expect_status 0
for i in 1 2 3 4; do expect_line "copy$i=0"; done
expect_line '4+0 records in'
expect_line '4+0 records out'
expect_line '6+0 records in'
expect_line "dd: error writing '/dev/vda': Invalid argument"
expect_line 'direct-unaligned=1'
expect_line "dd: error writing '/dev/vda': No space left on device"
expect_line 'past-end=1'
cmp -n 4194304 "$T/src.raw" "$T/dst.raw" || fail "copy1 differs"
cmp -i 4194304:8388608 -n 4194304 "$T/src.raw" "$T/dst.raw" || fail "copy2 differs"
cmp -i 5000:13007000 -n 3000 "$T/src.raw" "$T/dst.raw" || fail "copy3 differs"
[[ $(dd if="$T/dst.raw" bs=1 skip=15000001 count=6 2>/dev/null) == hello ]] || fail "copy4 differs"
cmp -i 4194304:0 -n 4194304 "$T/dst.raw" /dev/zero || fail "bytes between the copies changed"
cmp -i 13010000:0 -n 1990001 "$T/dst.raw" /dev/zero || fail "bytes after copy3 changed"
expect_output '^4194304 bytes \(4\.2 MB, 4\.0 MiB\) copied, [0-9.]+ s, [0-9.]+ [kMG]?B/s$'
expect_output '^6 bytes copied, [0-9.]+ s, [0-9.]+ [kMG]?B/s$'
expect_line '2+0 records in'
expect_line '1+0 records out'
