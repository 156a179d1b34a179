# Linux writes an ext4 tree on /mnt (scripts/compare/ext4-interop reads it back with
# cgwb): files of many sizes, a sparse file, a directory large enough for Linux to index,
# a symlink; then the checksum of every file, which cgwb must reproduce.
cd /mnt || exit 1
mkdir -p tree/dir/sub tree/big
dd if=/dev/urandom of=tree/large bs=1M count=8 2> /dev/null
dd if=/dev/urandom of=tree/dir/sub/medium bs=1000 count=70 2> /dev/null
echo hello > tree/small
i=0
while [ $i -lt 40 ]; do
	dd if=/dev/urandom of=tree/sparse bs=4096 seek=$((i * 16)) count=1 conv=notrunc 2> /dev/null
	i=$((i + 1))
done
i=0
while [ $i -lt 3000 ]; do
	echo $i > tree/big/entry-with-a-longer-name-$i
	i=$((i + 1))
done
ln -s small tree/fast
sync
cd /mnt/tree
sha256sum large dir/sub/medium small sparse fast big/entry-with-a-longer-name-0 \
	big/entry-with-a-longer-name-2999 | sed 's/^/sum /'
ls big | sort | sha256sum | sed 's/ .*/  names/; s/^/sum /'
