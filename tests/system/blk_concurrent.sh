# Many writers and readers at once from background jobs: eight dd writers copy disjoint
# ranges of vdb onto the low half of vda (direct and buffered, different record sizes)
# while four readers hash ranges of vda's high half. No corruption either way.
head -c 8M /dev/urandom > "$T/src.raw"
head -c 16M /dev/zero > "$T/dst.raw"
head -c 8M /dev/urandom >> "$T/dst.raw"
sums=()
for i in 0 1 2 3; do
	sums+=("$(dd if="$T/dst.raw" bs=256K skip=$((64 + i * 8)) count=8 2>/dev/null | sha256sum | cut -d' ' -f1)")
done
guest_script <<'GUEST'
for i in 0 1 2 3; do
	dd if=/dev/vdb of=/dev/vda bs=64K skip=$((i * 16)) seek=$((i * 16)) count=16 oflag=direct status=none &
	dd if=/dev/vdb of=/dev/vda bs=4K skip=$((1024 + i * 256)) seek=$((1024 + i * 256)) count=256 conv=fsync status=none &
	dd if=/dev/vda bs=256K skip=$((64 + i * 8)) count=8 status=none | sha256sum &
done
wait
echo all-done
cat /sys/block/vda/stat
poweroff 0
GUEST
run_guest --disk "$T/dst.raw" --disk "$T/src.raw" --timeout 120
expect_status 0
expect_line 'all-done'
for s in "${sums[@]}"; do expect_line "$s  -"; done
cmp -n 8388608 "$T/src.raw" "$T/dst.raw" || fail "the copies differ from the source"
cmp -i 8388608:0 -n 8388608 "$T/dst.raw" /dev/zero || fail "bytes beyond the copies changed"
expect_no_log 'Kernel panic|WARNING'
