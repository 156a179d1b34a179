# Power lost without sync: files written and synced before must be intact. The guest
# writes and syncs a few files, then writes more (16 MiB with 64 MiB of RAM, so background
# writeback is under way) and the power goes once it says so (QEMU killed, no umount).
#
# What is guaranteed: everything sync wrote. What is not: the files written after it,
# which may be missing, partly written, or half linked (ext2 has no journal). So e2fsck
# may complain, but only about what came after the sync: never about the synced files or
# their directory. After e2fsck -fy repairs the image, the synced files are still intact.
head -c 8M /dev/urandom > "$T/src.raw"
mke2fs -q -F -t ext2 -b 1024 "$T/disk.img" 64M > /dev/null 2>&1 || fail "mke2fs"
guest_script <<'GUEST'
[ -e /mnt/lost+found ] || mount /dev/vda /mnt 2> /dev/null # unless the boot mounted it already
df /mnt
mkdir /mnt/kept
dd if=/dev/vdb of=/mnt/kept/a bs=1M count=3 2> /dev/null
dd if=/dev/vdb of=/mnt/kept/b bs=1000 skip=7 count=77 2> /dev/null
seq 1 5000 > /mnt/kept/n
sync
echo synced
dd if=/dev/vdb of=/mnt/unsynced bs=1M count=8 2> /dev/null
dd if=/dev/vdb of=/mnt/unsynced bs=1M count=8 seek=8 2> /dev/null
mkdir /mnt/newdir
echo more > /mnt/newdir/x
echo written
sleep 100
GUEST
# the unsynced tail may be damaged: checked below, file by file
cut_power_after written --disk "$T/disk.img" --disk "$T/src.raw,readonly=on" --memory 64M --timeout 120
expect_output '^/dev/vda +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+% /mnt$'
expect_line synced
expect_line written

dumpe2fs -h "$T/disk.img" 2>/dev/null | grep -q '^Filesystem state: *not clean' ||
	fail "the image says clean although it was never unmounted"

check_kept()
{
	local img=$1 when=$2
	dd if="$T/src.raw" bs=1M count=3 2> /dev/null > "$T/exp-a"
	dd if="$T/src.raw" bs=1000 skip=7 count=77 2> /dev/null > "$T/exp-b"
	seq 1 5000 > "$T/exp-n"
	for f in a b n; do
		rm -f "$T/got-$f"
		debugfs -R "dump /kept/$f $T/got-$f" "$img" > /dev/null 2>&1
		cmp -s "$T/got-$f" "$T/exp-$f" || fail "$when: synced file /kept/$f is not intact"
	done
}
check_kept "$T/disk.img" "after the power cut"

# e2fsck may find the unsynced tail damaged, but nothing about the synced files
kept_inodes=$(for p in /kept /kept/a /kept/b /kept/n; do
	debugfs -R "stat $p" "$T/disk.img" 2>/dev/null | sed -n 's/^Inode: \([0-9]*\).*/\1/p'
done)
e2fsck -fn "$T/disk.img" > "$T/fsck.log" 2>&1
rc=$?
[[ $rc -eq 0 || $rc -eq 4 ]] || fail "e2fsck -fn exit status $rc"
for ino in $kept_inodes; do
	! grep -Eiq "inode $ino[^0-9]|<$ino>|\($ino\)" "$T/fsck.log" ||
		fail "e2fsck complains about synced inode $ino: $(grep -Ei "inode $ino[^0-9]|<$ino>" "$T/fsck.log" | head -3)"
done
echo "  e2fsck -fn after the cut: exit $rc, $(grep -c 'Fix?' "$T/fsck.log") fixable problems"

cp "$T/disk.img" "$T/repaired.img"
e2fsck -fy "$T/repaired.img" > "$T/fsck-y.log" 2>&1
rc=$?
[[ $rc -le 1 ]] || fail "e2fsck -fy could not repair the image (exit $rc)"
check_kept "$T/repaired.img" "after e2fsck -fy"
e2fsck -fn "$T/repaired.img" > /dev/null 2>&1 || fail "still not clean after e2fsck -fy"
