# ext4 in the kernel, through the shell: a Debian `mke2fs -t ext4 -d` image (vda) mounted
# read-only and read back, file by file, against the host's checksums (extent trees with an
# index level, a hashed directory, symlinks). A second image (vdb) holds a transaction debugfs wrote into its journal, as
# a crash would leave it: the mount replays it, and the file reads what e2fsck's own
# replay of the same image gives. After the run both images are e2fsck -fn clean (the
# harness checks every disk) and vdb no longer needs recovery.
PATH=$PATH:/usr/sbin:/sbin
src=$T/tree
ext4_sample_tree "$src"
ln -s small "$src/fast"
mke2fs -q -F -t ext4 -b 1024 -d "$src" "$T/a.img" 32M > /dev/null 2>&1 || fail "mke2fs a"
e2fsck -fyD "$T/a.img" > /dev/null 2>&1 # index /big
cp "$T/a.img" "$T/b.img"
b0=$(debugfs -R 'bmap /dir/sub/medium 0' "$T/b.img" 2> /dev/null)
head -c 1024 /dev/urandom > "$T/jdata"
printf 'jo -c\njw -b %s %s\njc\n' "$b0" "$T/jdata" | debugfs -w -f - "$T/b.img" > /dev/null 2>&1
dumpe2fs -h "$T/b.img" 2> /dev/null | grep -q needs_recovery || fail "debugfs left nothing to recover"
cp "$T/b.img" "$T/ref.img"
e2fsck -fy "$T/ref.img" > /dev/null 2>&1 # e2fsck's replay: the reference
debugfs -R "dump /dir/sub/medium $T/medium-replayed" "$T/ref.img" > /dev/null 2>&1

guest_script <<'GUEST'
mkdir /tmp/a /tmp/b
umount /mnt 2> /dev/null # the boot mounted it
mount -t ext4 -o ro /dev/vda /tmp/a
echo mount-a=$?
sha256sum /tmp/a/large /tmp/a/dir/sub/medium /tmp/a/small /tmp/a/sparse /tmp/a/fast
sha256sum /tmp/a/big/entry-with-a-longer-name-1 /tmp/a/big/entry-with-a-longer-name-400
ls /tmp/a/big > /tmp/names
sha256sum /tmp/names
umount /tmp/a
echo umount-a=$?
mount -t ext4 -o ro /dev/vdb /tmp/b
echo mount-b=$?
sha256sum /tmp/b/dir/sub/medium
umount /tmp/b
echo umount-b=$?
poweroff 0
GUEST
run_guest --disk "$T/a.img" --disk "$T/b.img" --timeout 120
expect_status 0
for l in mount-a=0 umount-a=0 mount-b=0 umount-b=0; do
	expect_line "$l"
done
for f in large dir/sub/medium small sparse fast big/entry-with-a-longer-name-1 \
	big/entry-with-a-longer-name-400; do
	expect_line "$(sha256sum < "$src/$f" | cut -d' ' -f1)  /tmp/a/$f"
done
expect_line "$(ls "$src/big" | LC_ALL=C sort | sha256sum | cut -d' ' -f1)  /tmp/names"
expect_line "$(sha256sum < "$T/medium-replayed" | cut -d' ' -f1)  /tmp/b/dir/sub/medium"
cmp -s <(head -c 1024 "$T/medium-replayed") "$T/jdata" || fail "the reference lacks the journal's block"
expect_log 'recovery complete: 1 transactions, 1 blocks replayed'
dumpe2fs -h "$T/b.img" 2> /dev/null | grep -q needs_recovery && fail "vdb still needs recovery"
