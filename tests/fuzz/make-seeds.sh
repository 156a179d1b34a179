#!/bin/bash
# Seed corpus for the ext2 fuzzer: small mke2fs images (several block and inode sizes)
# holding a few files, directories and symlinks, fast and slow, and a file with indirect
# blocks. Each is cut after its last block that is not all zeros: the fuzzer's disk reads
# as zeros past an input, so a seed is a few dozen KiB however large its filesystem.
# Usage: make-seeds.sh OUTDIR
set -eu
out=${1:?usage: make-seeds.sh OUTDIR}
PATH=$PATH:/usr/sbin:/sbin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out" "$tmp/src/dir/sub" "$tmp/src/many"

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
make_image() {
	local name=$1 size=$2; shift 2
	rm -f "$out/$name"
	mke2fs -q -F -t ext2 -U 01234567-89ab-cdef-0123-456789abcdef -E hash_seed=01234567-89ab-cdef-0123-456789abcdef \
		-N 64 "$@" -d "$tmp/src" "$tmp/$name" "$size" > /dev/null
	head -c "$(used_length "$tmp/$name")" "$tmp/$name" > "$out/$name"
}
# the filesystem sizes fit the fuzzer's 256 KiB disk
make_image b1024-i128.img 128k -b 1024 -I 128
make_image b1024-i256.img 128k -b 1024 -I 256
make_image b2048.img 128k -b 2048
make_image b4096.img 256k -b 4096
make_image b1024-plain.img 96k -b 1024 -O ^dir_index,^resize_inode,^ext_attr
echo "seeds: $(ls "$out" | wc -l) images in $out ($(du -bc "$out"/* | tail -1 | cut -f1) bytes)"
