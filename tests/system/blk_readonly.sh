# A read-only disk (readonly=on: VIRTIO_BLK_F_RO) refuses writes with a clear message and
# still reads; the image is untouched.
head -c 1M /dev/urandom > "$T/ro.raw"
sum=$(sha256sum < "$T/ro.raw" | cut -d' ' -f1)
guest_script <<'GUEST'
dd if=/dev/zero of=/dev/vda count=1
echo write=$?
sha256sum /dev/vda
poweroff 0
GUEST
run_guest --disk "$T/ro.raw,readonly=on"
expect_status 0
expect_line "dd: failed to open '/dev/vda': Read-only file system"
expect_line 'write=1'
expect_line "$sum  /dev/vda"
expect_log 'virtio_blk: vda: .* read-only'
[[ $(sha256sum < "$T/ro.raw" | cut -d' ' -f1) == "$sum" ]] || fail "the read-only image changed"
