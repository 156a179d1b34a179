# O_DIRECT on regular files of ext2, ext4 (extents, journal) and ext3 (block-mapped,
# journalled) images: dd with oflag=direct writes a 1.5 MiB file and its odd 1 KiB tail
# (a short last record: dd writes it without O_DIRECT, as GNU dd), dd with iflag=direct
# reads it back, both equal to the source (a direct write on the sectors but off the
# blocks, through the page cache, is morecalls'). Direct, not cached: the writes
# dirty no data page (nr_dirtied in /proc/vmstat moves by the metadata only; ext3's new
# file fills its holes through the page cache, as Linux's ext4 does for block-mapped
# files, so there only its overwrite counts) and are charged at once to the writer's io
# cgroup (io.stat's wbytes, no sync in between). A direct overwrite of cached pages is
# seen by a buffered read after it, and so are 8 direct writers of one file's parts at
# once (on the ext4 mounts, overwrites share i_rwsem); a direct read of a hole and of an
# ext4 file written through the page cache and not synced (delayed allocation) gives what
# a buffered read gives; a transfer off the 512-byte sectors is EINVAL, and a copy of a 100000-byte file
# with oflag=direct works (its short last record without O_DIRECT). A direct write bigger than the disk ends in ENOSPC; once
# the file is removed a direct write has the space again (on ext4, after the commit that
# frees the blocks). The host's e2fsck (after every run) finds each image clean; debugfs
# reads the files back.
PATH=$PATH:/usr/sbin:/sbin
head -c 1573888 /dev/urandom > "$T/src"
head -c 100000 /dev/urandom > "$T/odd"
for fs in ext2 ext4 ext3; do
	rm -rf "$T/tree" && mkdir "$T/tree" && cp "$T/src" "$T/odd" "$T/tree/"
	mke2fs -q -F -t $fs -b 4096 -d "$T/tree" "$T/$fs.img" 64M > /dev/null 2>&1 || fail "mke2fs $fs"
done

guest_script <<'GUEST'
umount /mnt 2> /dev/null
mkdir /tmp/ext2 /tmp/ext4 /tmp/ext3
mount /dev/vda /tmp/ext2 && mount /dev/vdb /tmp/ext4 && mount -t ext4 /dev/vdc /tmp/ext3
echo mounted=$?
cd /sys/fs/cgroup
echo +io > cgroup.subtree_control
mkdir dio
check()
{
	fs=$1
	m=/tmp/$fs
	before=$(grep nr_dirtied /proc/vmstat)
	cgexec -g dio dd if=$m/src of=$m/direct bs=64K oflag=direct status=none
	echo $fs write=$?
	echo $fs dirtied $before $(grep nr_dirtied /proc/vmstat)
	before=$(grep nr_dirtied /proc/vmstat)
	dd if=$m/src of=$m/direct bs=64K conv=notrunc oflag=direct status=none
	echo $fs overwrite=$? $before $(grep nr_dirtied /proc/vmstat)
	echo $fs $(grep 254:$2 dio/io.stat)
	dd if=$m/direct of=/tmp/back-$fs bs=128K iflag=direct status=none
	echo $fs read=$?
	sha256sum $m/src $m/direct /tmp/back-$fs
	cat $m/direct > /dev/null
	dd if=$m/src of=$m/direct bs=4K skip=5 seek=3 count=2 conv=notrunc oflag=direct status=none
	dd if=$m/direct bs=4K skip=3 count=2 status=none | sha256sum
	dd if=$m/src bs=4K skip=5 count=2 status=none | sha256sum
	truncate -s 1M $m/hole
	dd if=$m/hole bs=1M iflag=direct status=none | sha256sum
	dd if=$m/src of=$m/buffered bs=64K status=none
	dd if=$m/buffered bs=64K iflag=direct status=none | sha256sum
	dd if=$m/src of=/dev/null bs=1000 count=1 iflag=direct
	echo $fs unaligned=$?
	for i in 1 2 3 4; do
		dd if=$m/src of=$m/direct bs=64K skip=$i seek=$i count=1 conv=notrunc oflag=direct status=none &
		dd if=$m/src of=$m/direct bs=64K skip=$((i + 8)) seek=$((i + 8)) count=1 conv=notrunc oflag=direct status=none &
	done
	wait
	sha256sum $m/direct
	dd if=$m/odd of=$m/odd-copy bs=64K oflag=direct status=none
	echo $fs odd=$?
	sha256sum $m/odd-copy
	dd if=/dev/zero of=$m/full bs=1M count=80 oflag=direct status=none 2> /dev/null
	echo $fs full=$?
	rm $m/full
	dd if=/dev/zero of=$m/after bs=1M count=8 oflag=direct status=none
	echo $fs after-full=$?
	rm $m/after
}
check ext2 0
check ext4 16
check ext3 32
dd if=/dev/zero bs=1M count=1 status=none | sha256sum
umount /tmp/ext2 && umount /tmp/ext4 && umount /tmp/ext3
echo umounted=$?
poweroff 0
GUEST
run_guest --disk "$T/ext2.img" --disk "$T/ext4.img" --disk "$T/ext3.img" --timeout 180
expect_status 0
expect_line mounted=0
expect_line umounted=0
src_sum=$(sha256sum < "$T/src" | cut -d' ' -f1)
zero_sum=$(head -c 1M /dev/zero | sha256sum | cut -d' ' -f1)
piece_sum=$(dd if="$T/src" bs=4K skip=5 count=2 status=none | sha256sum | cut -d' ' -f1)
{
	dd if="$T/src" bs=4K count=3 status=none
	dd if="$T/src" bs=4K skip=5 count=2 status=none
	dd if="$T/src" bs=4K skip=5 status=none
} > "$T/want-direct"
for fs in ext2 ext4 ext3; do
	expect_line "$fs write=0"
	expect_line "$fs read=0"
	expect_line "$fs unaligned=1"
	expect_line "$fs odd=0"
	expect_line "$(sha256sum < "$T/odd" | cut -d' ' -f1)  /tmp/$fs/odd-copy"
	expect_line "$fs full=1"
	expect_line "$fs after-full=0"
	for f in /tmp/$fs/src /tmp/$fs/direct /tmp/back-$fs; do
		grep -q "^$src_sum  $f\$" "$OUT" || fail "$f differs from the source"
	done
	# 1.5 MiB is 384 pages: direct writes dirty the tail's page and metadata, not the data
	read -r a b < <(awk -v fs=$fs '$1 == fs && $2 == "dirtied" { print $4, $6 }' "$OUT")
	[[ -n $a && ($fs == ext3 || $((b - a)) -lt 64) ]] ||
		fail "$fs: the direct write dirtied $((b - a)) pages"
	expect_output "^$fs overwrite=0 "
	read -r a b < <(awk -v fs=$fs '$1 == fs && $2 == "overwrite=0" { print $4, $6 }' "$OUT")
	[[ -n $a && $((b - a)) -lt 64 ]] || fail "$fs: the direct overwrite dirtied $((b - a)) pages"
	wbytes=$(awk -v fs=$fs '$1 == fs && $4 ~ /^wbytes=/ { sub("wbytes=", "", $4); print $4 }' "$OUT")
	[[ -n $wbytes && $wbytes -ge 1572864 ]] ||
		fail "$fs: io.stat charged the writer's group $wbytes bytes before any sync"
	debugfs -R "dump /direct $T/direct-$fs" "$T/$fs.img" > /dev/null 2>&1
	cmp -s "$T/want-direct" "$T/direct-$fs" ||
		fail "$fs: the image's /direct is not the source with its blocks 3-4 overwritten"
	# 8 direct writers of 64 KiB at once, each its own part, over that (on ext4 mounts i_rwsem shared)
	expect_line "$(sha256sum < "$T/want-direct" | cut -d' ' -f1)  /tmp/$fs/direct"
done
[[ $(grep -c "^$piece_sum  -\$" "$OUT") -eq 6 ]] ||
	fail "a buffered read after a direct overwrite did not see it"
[[ $(grep -c "^$zero_sum  -\$" "$OUT") -eq 4 ]] || fail "a direct read of a hole is not zeros"
[[ $(grep -c "^$src_sum  -\$" "$OUT") -eq 3 ]] ||
	fail "a direct read of data written through the page cache differs"
expect_count 3 "Invalid argument"
expect_count 0 "error writing"
