# Writing ext4 in the kernel, through the shell: a Debian `mke2fs -t ext4 -O ^has_journal -d`
# image (extents, flex_bg, metadata_csum, 64bit, a hashed directory) mounted read-write; the
# guest copies files (new extent-mapped files), makes a directory, adds 300 names to the
# hashed directory and removes half of them, renames, links, truncates, removes a file with
# an extent index level, and umounts. Then the host: e2fsck -fn and debugfs reading back
# each file the guest wrote, byte for byte. A second image (vdb) keeps its journal: the
# guest writes through it (data=writeback, commit=1, lazytime on the command line), syncs and powers
# off (which unmounts it); on the host the journal is empty, needs_recovery clear, e2fsck
# -fn clean and the files read back. (ext4_power_cut cuts the power instead.) Neither mount
# names the type of vdb, nor the boot of vda: both are read from the superblock.
PATH=$PATH:/usr/sbin:/sbin
src=$T/tree
ext4_sample_tree "$src"
mke2fs -q -F -t ext4 -O ^has_journal -b 1024 -d "$src" "$T/a.img" 32M > /dev/null 2>&1 ||
	fail "mke2fs"
e2fsck -fyD "$T/a.img" > /dev/null 2>&1 # index /big
debugfs -R 'htree /big' "$T/a.img" 2>&1 | grep -q 'Number of entries' || fail "/big is not hashed"
mke2fs -q -F -t ext4 -b 4096 -d "$src" "$T/b.img" 64M > /dev/null 2>&1 || fail "mke2fs b"

guest_script <<'GUEST'
grep ' /mnt ' /proc/mounts
mkdir /tmp/w
umount /mnt 2> /dev/null # the boot mounted it
mount -t ext4 /dev/vda /tmp/w
echo mount=$?
cp /tmp/w/large /tmp/w/copy-of-large
mkdir /tmp/w/newdir
cp /tmp/w/dir/sub/medium /tmp/w/newdir/medium2
for i in $(seq 1 300); do echo $i > /tmp/w/big/added-name-$i; done
for i in $(seq 1 2 300); do rm /tmp/w/big/added-name-$i; done
mv /tmp/w/small /tmp/w/newdir/small-moved
ln /tmp/w/newdir/medium2 /tmp/w/hardlink
ln -s newdir/small-moved /tmp/w/symlink
rm /tmp/w/sparse
truncate -s 100000 /tmp/w/large
sha256sum /tmp/w/copy-of-large /tmp/w/newdir/medium2 /tmp/w/big/added-name-300
umount /tmp/w
echo umount=$?
mkdir /tmp/j
mount -o data=writeback,commit=1,lazytime /dev/vdb /tmp/j
echo mount-j=$?
grep ' /tmp/j ' /proc/mounts
mount /dev/vdz /tmp/w
echo mount-none=$?
cp /tmp/j/large /tmp/j/jcopy
mkdir /tmp/j/jdir
cp /tmp/j/dir/sub/medium /tmp/j/jdir/medium
for i in $(seq 1 200); do echo $i > /tmp/j/big/jname-$i; done
rm /tmp/j/sparse
sync
echo synced
poweroff 0
GUEST
run_guest --disk "$T/a.img" --disk "$T/b.img" --timeout 180
expect_status 0
for l in mount=0 umount=0 mount-j=0 mount-none=32 synced; do
	expect_line "$l"
done
grep -q '^/dev/vda /mnt ext4 rw' "$T/out" || fail "the boot did not mount vda as ext4: $(grep ' /mnt ' "$T/out")"
grep -q '^/dev/vdb /tmp/j ext4 rw,lazytime' "$T/out" || fail "vdb was not mounted as ext4 with lazytime: $(grep ' /tmp/j ' "$T/out")"
grep -a -q 'EXT2-fs (vda)' "$LOG" && fail "the boot tried ext2 on vda: $(grep -a -m1 'EXT2-fs (vda)' "$LOG")"
expect_line "$(sha256sum < "$src/large" | cut -d' ' -f1)  /tmp/w/copy-of-large"
expect_line "$(sha256sum < "$src/dir/sub/medium" | cut -d' ' -f1)  /tmp/w/newdir/medium2"

# the host reads back what the guest wrote
e2fsck -fn "$T/a.img" > "$T/fsck-a.log" 2>&1 || fail "e2fsck -fn a.img: $(tail -n 3 "$T/fsck-a.log")"
same()
{
	debugfs -R "dump $1 $T/dumped" "${img:-$T/a.img}" > /dev/null 2>&1
	cmp -s "$T/dumped" "$2" || fail "debugfs: $1 differs from $2"
}
same /copy-of-large "$src/large"
same /newdir/medium2 "$src/dir/sub/medium"
same /hardlink "$src/dir/sub/medium"
same /newdir/small-moved "$src/small"
head -c 100000 "$src/large" > "$T/large-cut"
same /large "$T/large-cut"
for i in 2 150 300; do
	echo "$i" > "$T/want"
	same "/big/added-name-$i" "$T/want"
done
debugfs -R 'stat /big/added-name-1' "$T/a.img" 2>&1 | grep -q 'File not found' ||
	fail "a removed name is still there"
debugfs -R 'stat /copy-of-large' "$T/a.img" 2> /dev/null | grep -q 'Flags: 0x80000' ||
	fail "the guest's file is not extent-mapped"
debugfs -R 'htree /big' "$T/a.img" 2>&1 | grep -q 'Number of entries' ||
	fail "/big lost its index"
[[ $(debugfs -R 'stat /symlink' "$T/a.img" 2> /dev/null | grep -c 'Fast link dest: "newdir/small-moved"') -eq 1 ]] ||
	fail "the symlink is not a fast one with its target"
# live entries only: a removed name first in its block stays, with inode 0
[[ $(debugfs -R 'ls -l /big' "$T/a.img" 2> /dev/null | awk '$1 != 0 && $NF ~ /^added-name-/' | wc -l) -eq 150 ]] ||
	fail "/big does not hold the 150 names left"

# vdb: unmounted at power-off (the harness's e2fsck -fn checked it): the journal is empty
dumpe2fs -h "$T/b.img" 2> /dev/null | grep -q needs_recovery && fail "vdb still needs recovery"
dumpe2fs -h "$T/b.img" 2> /dev/null | grep -q '^Journal start: *0$' || fail "vdb's journal is not empty"
img=$T/b.img
same /jcopy "$src/large"
same /jdir/medium "$src/dir/sub/medium"
echo 200 > "$T/want"
same /big/jname-200 "$T/want"
debugfs -R 'stat /sparse' "$T/b.img" 2>&1 | grep -q 'File not found' || fail "vdb: /sparse is still there"
