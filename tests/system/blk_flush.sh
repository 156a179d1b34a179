# Flushes: conv=fsync sends one flush; oflag=dsync makes every write FUA, which the block
# layer turns into write + flush. The flush count (field 16 of /sys/block/vda/stat) shows it.
truncate -s 8M "$T/a.raw"
guest_script <<'GUEST'
cat /sys/block/vda/stat
dd if=/dev/zero of=/dev/vda bs=4K count=4 conv=fsync status=none
cat /sys/block/vda/stat
dd if=/dev/urandom of=/dev/vda bs=4K count=3 oflag=dsync status=none
cat /sys/block/vda/stat
poweroff 0
GUEST
run_guest --disk "$T/a.raw"
expect_status 0
flushes=$(awk 'NF == 17 { print $16 }' "$OUT" | tr '\n' ' ')
[[ $flushes == "0 1 4 " ]] || fail "flush counts '$flushes', expected '0 1 4 '"
writes=$(awk 'NF == 17 { print $5 }' "$OUT" | tr '\n' ' ')
# the fsync writes the 4 neighbouring pages under one plug: one request; each dsync write is its own
[[ $writes == "0 1 4 " ]] || fail "write counts '$writes', expected '0 1 4 '"
