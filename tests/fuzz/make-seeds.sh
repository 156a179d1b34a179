#!/bin/bash
# Seed corpora for the ext2 and ext4 fuzzers: small mke2fs images (several block and inode
# sizes) holding a few files, directories and symlinks, fast and slow, and a file with
# indirect blocks; the ext4 ones (Debian's `mke2fs -t ext4` features, with and without the
# journal and metadata_csum) also a sparse file whose extent tree has an index level and a
# hashed directory. Each is cut after its last block that is not all zeros: the fuzzer's
# disk reads as zeros past an input, so a seed is a few dozen KiB however large its
# filesystem. Usage: make-seeds.sh OUTDIR (ext2 seeds in OUTDIR/ext2, ext4 in OUTDIR/ext4)
set -eu
out=${1:?usage: make-seeds.sh OUTDIR}
PATH=$PATH:/usr/sbin:/sbin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out/ext2" "$out/ext4" "$tmp/src/dir/sub" "$tmp/src/many"

# deterministic contents: the corpus must not change from one run to the next
printf 'hello\n' > "$tmp/src/hello"
seq 1 3000 > "$tmp/src/dir/numbers"                  # ~14 KiB: indirect with 1 KiB blocks
: > "$tmp/src/empty"
seq 1 20 > "$tmp/src/dir/sub/short"
for i in $(seq 40); do : > "$tmp/src/many/entry-$i"; done
ln -s hello "$tmp/src/fast-link"
ln -s "dir/sub/$(printf 'long%.0s' $(seq 20))" "$tmp/src/slow-link"

# The length of the image up to its last 1 KiB block holding a byte other than zero.
used_length() {
	od -A d -t x1 -v -w1024 "$1" | awk '$0 ~ / [0-9a-f]*[1-9a-f]/ { last = $1 + 1024 } END { print last + 0 }'
}

export E2FSPROGS_FAKE_TIME=1704067200 MKE2FS_DEVICE_SECTSIZE=512
# make_image TYPE NAME SIZE MKE2FS-OPTIONS...: from $tmp/src-TYPE into $out/TYPE/NAME
make_image() {
	local type=$1 name=$2 size=$3; shift 3
	rm -f "$out/$type/$name"
	mke2fs -q -F -t "$type" -U 01234567-89ab-cdef-0123-456789abcdef -E hash_seed=01234567-89ab-cdef-0123-456789abcdef \
		-N 64 "$@" -d "$tmp/src-$type" "$tmp/$name" "$size" > /dev/null
	if [ "$type" = ext4 ]; then
		e2fsck -fyD "$tmp/$name" > /dev/null 2>&1 || [ $? -lt 4 ] # index the big directory
	fi
	head -c "$(used_length "$tmp/$name")" "$tmp/$name" > "$out/$type/$name"
}
cp -a "$tmp/src" "$tmp/src-ext2"
cp -a "$tmp/src" "$tmp/src-ext4"
for i in $(seq 0 5); do # six 1 KiB pieces with holes between: more extents than the inode holds
	printf 'piece %d\n' "$i" | dd of="$tmp/src-ext4/sparse" bs=1024 seek=$((i * 3)) conv=notrunc status=none
done
mkdir "$tmp/src-ext4/hashed" "$tmp/src-ext4/deep"
# 3000 names for one inode: a directory whose index needs a level of nodes (1 KiB blocks)
: > "$tmp/src-ext4/deep/target"
for i in $(seq 3000); do ln "$tmp/src-ext4/deep/target" "$tmp/src-ext4/deep/link-with-a-name-long-enough-$i"; done
for i in $(seq 50); do : > "$tmp/src-ext4/hashed/a-much-longer-entry-name-than-the-others-$i"; done
# the filesystem sizes fit the fuzzer's 256 KiB disk
make_image ext2 b1024-i128.img 128k -b 1024 -I 128
make_image ext2 b1024-i256.img 128k -b 1024 -I 256
make_image ext2 b2048.img 128k -b 2048
make_image ext2 b4096.img 256k -b 4096
make_image ext2 b1024-plain.img 96k -b 1024 -O ^dir_index,^resize_inode,^ext_attr
# the ext4 fuzzer's disk is 2 MiB: room for the smallest journal (1024 blocks of 1 KiB)
make_image ext4 b1024-journal.img 2M -b 1024 -N 128
make_image ext4 b1024.img 256k -b 1024 -O ^has_journal -N 128
make_image ext4 b4096.img 512k -b 4096 -O ^has_journal -N 128
make_image ext4 b1024-nocsum.img 256k -b 1024 -O ^has_journal,^metadata_csum -N 128
# a crash's leftovers: two transactions in the journal (checksummed), one revoking a block
cp "$tmp/b1024-journal.img" "$tmp/b1024-recover.img"
b0=$(debugfs -R "bmap /dir/numbers 0" "$tmp/b1024-recover.img" 2>/dev/null)
b1=$(debugfs -R "bmap /dir/numbers 1" "$tmp/b1024-recover.img" 2>/dev/null)
head -c 2048 /dev/zero | tr '\0' 'J' > "$tmp/jdata"
printf 'jo -c\njw -b %s,%s %s\njw -r %s\njc\n' "$b0" "$b1" "$tmp/jdata" "$b1" |
	debugfs -w -f - "$tmp/b1024-recover.img" > /dev/null 2>&1
head -c "$(used_length "$tmp/b1024-recover.img")" "$tmp/b1024-recover.img" > "$out/ext4/b1024-recover.img"
for t in ext2 ext4; do
	echo "seeds: $(ls "$out/$t" | wc -l) $t images in $out/$t ($(du -bc "$out/$t"/* | tail -1 | cut -f1) bytes)"
done
