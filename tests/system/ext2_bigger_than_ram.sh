# A dataset larger than RAM on ext2: with 64 MiB of guest memory, an 80 MiB file is built
# from a host-made random disk (vdb) and copied, so both are written back under memory
# pressure and read back from disk (they cannot stay cached): the copy is made by reading
# the first back, and the guest compares the two. The host checks e2fsck -fn and compares
# both files byte for byte with what was written. (cmp, not sha256sum: hashing 160 MiB
# under TCG takes minutes.)
head -c 8M /dev/urandom > "$T/src.raw"
mke2fs -q -F -t ext2 "$T/disk.img" 256M > /dev/null 2>&1 || fail "mke2fs"
guest_script <<'GUEST'
[ -e /mnt/lost+found ] || mount /dev/vda /mnt 2> /dev/null # unless the boot mounted it already
df /mnt
cat /dev/vdb /dev/vdb /dev/vdb /dev/vdb /dev/vdb /dev/vdb /dev/vdb /dev/vdb /dev/vdb /dev/vdb > /mnt/big
echo write=$?
cp /mnt/big /mnt/copy
echo copy=$?
cmp /mnt/big /mnt/copy
echo cmp=$?
free -m
umount /mnt
echo umount=$?
poweroff 0
GUEST
run_guest --disk "$T/disk.img" --disk "$T/src.raw,readonly=on" --memory 64M --timeout 240
expect_status 0
expect_output '^/dev/vda +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+% /mnt$'
for l in write=0 copy=0 cmp=0 umount=0; do
	expect_line "$l"
done
for i in 1 2 3 4 5 6 7 8 9 10; do cat "$T/src.raw"; done > "$T/expected"
e2fsck -fn "$T/disk.img" > "$T/fsck.log" 2>&1 || fail "e2fsck -fn: $(grep -v '^Pass\|^e2fsck' "$T/fsck.log" | head -5)"
for f in big copy; do
	debugfs -R "dump /$f $T/dump" "$T/disk.img" > /dev/null 2>&1
	cmp -s "$T/dump" "$T/expected" || fail "/$f differs from what was written"
	rm -f "$T/dump"
done
expect_no_log 'Kernel panic|BUG|WARNING'
