# cgwb writes an ext4 tree through its journal (data=ordered) for Linux to read
# (scripts/compare/ext4-interop, case read): files of 6 bytes to 8 MiB, a sparse file, a
# file grown by truncate and one cut short, a renamed file, a hard link, a fast and a slow
# symlink, 3000 names added to the image's indexed directory and a third removed; then sync
# and power off (which unmounts). Prints the checksum of every file of tree/ and the
# listing (inode numbers and names) of every directory, which Linux must reproduce.
umount /mnt 2> /dev/null # the boot mounted it
mount -t ext4 /dev/vda /mnt && echo mounted
cd /mnt
mkdir tree tree/dir tree/dir/sub
dd if=/dev/urandom of=tree/large bs=1M count=8 2> /dev/null
dd if=/dev/urandom of=tree/dir/sub/medium bs=1000 count=70 2> /dev/null
echo hello > tree/small
for i in $(seq 0 39); do
	dd if=/dev/urandom of=tree/sparse bs=4096 seek=$((i * 16)) count=1 conv=notrunc 2> /dev/null
done
dd if=/dev/urandom of=tree/grown bs=4096 count=3 2> /dev/null
truncate -s 5000000 tree/grown
dd if=/dev/urandom of=tree/cut bs=1M count=3 2> /dev/null
truncate -s 100000 tree/cut
dd if=/dev/urandom of=tree/first-name bs=4096 count=5 2> /dev/null
mv tree/first-name tree/dir/renamed
ln tree/dir/sub/medium tree/hard
ln -s small tree/fast
ln -s dir/sub/../sub/../sub/../sub/../sub/../sub/../sub/../sub/../sub/medium-through-a-long-path tree/slow
for i in $(seq 1 3000); do echo $i > big/entry-with-a-longer-name-$i; done
for i in $(seq 1 3 3000); do rm big/entry-with-a-longer-name-$i; done
sync
for f in large dir/sub/medium small sparse grown cut dir/renamed hard; do sha256sum tree/$f; done
for d in tree tree/dir tree/dir/sub big; do echo "list $d $(ls -i $d | sort | sha256sum)"; done
echo "link fast $(readlink tree/fast)"
echo "link slow $(readlink tree/slow)"
cd /
poweroff 0
