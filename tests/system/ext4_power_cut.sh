# Power lost on ext4 with its journal: a Debian `mke2fs -t ext4 -d` image mounted read-write
# (data=ordered, commit=5), files written and synced, then more written while the power
# goes (QEMU killed once the guest says so, no umount). The image needs recovery. On the
# host, e2fsck -fy replays the journal and fixes nothing else (the superblock's free
# counts are logged with each transaction), after which e2fsck -fn finds nothing to fix
# (unlike ext2, whatever was not synced is gone or whole), and the synced files are intact.
# A second boot mounts another copy of the cut image: cgwb's own replay gives the same
# synced files.
PATH=$PATH:/usr/sbin:/sbin
src=$T/tree
mkdir -p "$src/dir" "$src/big"
head -c 3M /dev/urandom > "$src/large"
head -c 70000 /dev/urandom > "$src/dir/medium"
for i in $(seq 1 400); do echo "$i" > "$src/big/entry-with-a-longer-name-$i"; done
mke2fs -q -F -t ext4 -b 4096 -d "$src" "$T/disk.img" 64M > /dev/null 2>&1 || fail "mke2fs"
e2fsck -fyD "$T/disk.img" > /dev/null 2>&1 # index /big

guest_script <<'GUEST'
mkdir /tmp/m
umount /mnt 2> /dev/null # the boot mounted it
mount -t ext4 /dev/vda /tmp/m
echo mount=$?
mkdir /tmp/m/kept
cp /tmp/m/large /tmp/m/kept/a
cp /tmp/m/dir/medium /tmp/m/kept/b
for i in $(seq 1 100); do echo $i > /tmp/m/big/kept-$i; done
rm /tmp/m/dir/medium
sync
echo synced
cp /tmp/m/large /tmp/m/unsynced
mkdir /tmp/m/newdir
for i in $(seq 1 100); do echo $i > /tmp/m/newdir/n-$i; done
rm /tmp/m/kept/b
echo written
sleep 100
GUEST
cut_power_after written --disk "$T/disk.img" --timeout 120 # the replay checked below
for l in mount=0 synced written; do
	expect_line "$l"
done
dumpe2fs -h "$T/disk.img" 2> /dev/null | grep -q needs_recovery ||
	fail "the cut image does not say needs_recovery"
cp "$T/disk.img" "$T/ours.img"

kept()
{
	local img=$1 when=$2
	debugfs -R "dump /kept/a $T/got-a" "$img" > /dev/null 2>&1
	cmp -s "$T/got-a" "$src/large" || fail "$when: synced /kept/a is not intact"
	echo 100 > "$T/want"
	debugfs -R "dump /big/kept-100 $T/got-n" "$img" > /dev/null 2>&1
	cmp -s "$T/got-n" "$T/want" || fail "$when: synced /big/kept-100 is not intact"
	debugfs -R 'stat /dir/medium' "$img" 2>&1 | grep -q 'File not found' ||
		fail "$when: the synced removal of /dir/medium is undone"
}
expect_replay_only "$T/disk.img"
kept "$T/disk.img" "after e2fsck's replay"

# cgwb's replay of the same cut image
guest_script <<'GUEST'
mkdir /tmp/m
umount /mnt 2> /dev/null # the boot mounted it (and replayed the journal)
mount -t ext4 -o ro /dev/vda /tmp/m
echo mount=$?
sha256sum /tmp/m/kept/a
umount /tmp/m
echo umount=$?
poweroff 0
GUEST
FSCK_AFTER_RUN=1
run_guest --disk "$T/ours.img" --timeout 120
expect_status 0
for l in mount=0 umount=0; do
	expect_line "$l"
done
expect_line "$(sha256sum < "$src/large" | cut -d' ' -f1)  /tmp/m/kept/a"
expect_log 'recovery complete: 1 transactions'
kept "$T/ours.img" "after cgwb's replay"
