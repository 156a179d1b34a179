# ext2 through the shell: the same workload on a 1 KiB-block and a 4 KiB-block filesystem
# (made by mke2fs on the host): files of many sizes copied from a host-made random disk
# (vdc), rewritten in the middle, truncated down and up, copied, renamed, linked; a
# directory of many entries half deleted; a tree created and removed. After umount the
# host runs e2fsck -fn on both images and compares every file byte for byte (debugfs
# dump) and by checksum with what it expects.
head -c 8M /dev/urandom > "$T/src.raw"
mke2fs -q -F -t ext2 -b 1024 "$T/b1k.img" 48M > /dev/null 2>&1 || fail "mke2fs b1k"
mke2fs -q -F -t ext2 -b 4096 "$T/b4k.img" 48M > /dev/null 2>&1 || fail "mke2fs b4k"
guest_script <<'GUEST'
[ -e /mnt/lost+found ] || mount /dev/vda /mnt 2> /dev/null # unless the boot mounted it already
df /mnt
mkdir /tmp/m2
mount /dev/vdb /tmp/m2
echo mount-vdb=$?
for m in /mnt /tmp/m2
do
	mkdir -p $m/a/b $m/c $m/many
	dd if=/dev/vdc of=$m/a/small bs=1000 count=1 2> /dev/null
	dd if=/dev/vdc of=$m/a/b/medium bs=4096 skip=1 count=75 2> /dev/null
	dd if=/dev/vdc of=$m/a/b/large bs=1M skip=1 count=6 2> /dev/null
	dd if=/dev/vdc of=$m/c/rewrite bs=64K count=16 2> /dev/null
	dd if=/dev/vdc of=$m/c/rewrite bs=1000 skip=3000 seek=77 count=50 conv=notrunc 2> /dev/null
	seq 1 20000 > $m/c/numbers
	cp $m/a/b/medium $m/c/copy
	mv $m/c/copy $m/a/moved
	truncate -s 100000 $m/a/b/medium
	truncate -s 2000000 $m/a/small
	ln -s ../a/b/large $m/c/link
	for i in $(seq 1 300); do echo $i > $m/many/f$i; done
	for i in $(seq 1 2 300); do rm $m/many/f$i; done
	mkdir -p $m/tmp/x/y
	echo gone > $m/tmp/x/y/z
	rm -r $m/tmp
	echo rc-$m=$?
	sha256sum $m/a/small $m/a/b/medium $m/a/b/large $m/c/rewrite $m/c/numbers $m/a/moved $m/c/link
done
umount /mnt
echo umount-vda=$?
umount /tmp/m2
echo umount-vdb=$?
poweroff 0
GUEST
run_guest --disk "$T/b1k.img" --disk "$T/b4k.img" --disk "$T/src.raw,readonly=on" --timeout 120
expect_status 0
expect_output '^/dev/vda +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+% /mnt$'
for l in mount-vdb=0 rc-/mnt=0 rc-/tmp/m2=0 umount-vda=0 umount-vdb=0; do
	expect_line "$l"
done

# what each file must hold
src=$T/src.raw
exp=$T/expected
mkdir -p "$exp"
{ head -c 1000 "$src"; head -c 1999000 /dev/zero; } > "$exp/small"
dd if="$src" bs=4096 skip=1 count=75 2> /dev/null > "$exp/moved"
head -c 100000 "$exp/moved" > "$exp/medium"
dd if="$src" bs=1M skip=1 count=6 2> /dev/null > "$exp/large"
cp "$exp/large" "$exp/link"
head -c 1M "$src" > "$exp/rewrite"
dd if="$src" of="$exp/rewrite" bs=1000 skip=3000 seek=77 count=50 conv=notrunc 2> /dev/null
seq 1 20000 > "$exp/numbers"

check_image()
{
	local img=$1 m=$2 label=$3 f path out
	e2fsck -fn "$img" > "$T/fsck-$label.log" 2>&1 ||
		fail "e2fsck -fn $img: $(grep -v '^Pass\|^e2fsck' "$T/fsck-$label.log" | head -5)"
	for f in a/small a/b/medium a/b/large c/rewrite c/numbers a/moved; do
		out=$T/dump-$label-$(basename "$f")
		debugfs -R "dump /$f $out" "$img" > /dev/null 2>&1
		cmp -s "$out" "$exp/$(basename "$f")" || fail "$img: /$f differs from what was written"
		sum=$(sha256sum < "$exp/$(basename "$f")" | cut -d' ' -f1)
		path=$m/$f
		expect_line "$sum  $path"
	done
	expect_line "$(sha256sum < "$exp/link" | cut -d' ' -f1)  $m/c/link"
	# live entries only: a removed entry first in its block stays, with inode 0
	[[ $(debugfs -R 'ls /many' "$img" 2> /dev/null | grep -oE '(^| )[1-9][0-9]* +\([0-9]+\) f[0-9]+' | wc -l) -eq 150 ]] ||
		fail "$img: /many should hold 150 files"
	debugfs -R 'stat /tmp' "$img" 2>&1 | grep -q 'File not found' || fail "$img: /tmp still exists"
	debugfs -R 'stat /c/link' "$img" 2>/dev/null | grep -q 'Fast link dest: "../a/b/large"' ||
		fail "$img: /c/link is not the fast symlink written"
	dumpe2fs -h "$img" 2>/dev/null | grep -q '^Filesystem state: *clean$' || fail "$img: not clean after umount"
}
check_image "$T/b1k.img" /mnt b1k
check_image "$T/b4k.img" /tmp/m2 b4k
