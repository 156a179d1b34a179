# The workload disk's filesystem, written once for `make compare` and the benchmarks (sourced):
# FS=ext2 (the default: 4 KiB blocks) or FS=ext4 (Debian's `mke2fs -t ext4` defaults, with its
# journal), mounted on /mnt with FS_OPTS (e.g. data=writeback) by both kernels alike.
# FS_MKFS=ext3 with FS=ext4 makes an ext3 image (a journal, block-mapped files, no extents)
# and mounts it as ext4, as a user with an older image does.
#
#   fs_mkfs IMG SIZE [ARG...]   a fresh image of SIZE (truncate's units) holding an empty
#                        $FS (or FS_TREE's files, when set: mke2fs -d); ARGs go to mke2fs
#                        for ext2 only (each caller's ext2 as it was)
#   fs_cgwb_mount        the line a cgwb guest script starts with to mount it (cgwb's boot
#                        mounts an ext2 /dev/vda by itself, not an ext4 one nor with options)
#   fs_linux_args        what Linux's command line takes for it (scripts/compare/init reads)
#   fs_label             "ext2", or "ext4" with its options, for headers
FS=${FS:-ext2}
FS_OPTS=${FS_OPTS:-}
FS_MKFS=${FS_MKFS:-$FS}
case $FS in
ext2 | ext4) ;;
*) echo "FS=$FS: only ext2 and ext4" >&2; exit 2 ;;
esac
case $FS/$FS_MKFS in
ext2/ext2 | ext4/ext4 | ext4/ext3) ;;
*) echo "FS_MKFS=$FS_MKFS: an image of the FS type, or ext3 mounted as ext4" >&2; exit 2 ;;
esac

fs_mkfs()
{
	local img=$1 size=$2 args=(-t ext2 "${@:3}")
	[[ $FS == ext4 ]] && args=(-t "$FS_MKFS")
	[[ -n ${FS_TREE:-} ]] && args+=(-d "$FS_TREE")
	rm -f "$img" && truncate -s "$size" "$img" &&
		PATH=$PATH:/usr/sbin:/sbin mke2fs -q -F "${args[@]}" "$img" > /dev/null 2>&1 ||
		{ echo "mke2fs -t $FS_MKFS $img failed" >&2; return 1; }
}

fs_cgwb_mount()
{
	[[ $FS == ext2 && -z $FS_OPTS ]] && return 0
	echo "umount /mnt 2> /dev/null"
	# a workload on the root's ramfs would measure nothing: no mount, no run
	echo "mount -t $FS${FS_OPTS:+ -o $FS_OPTS} /dev/vda /mnt || { echo 'mount -t $FS failed'; poweroff 1; }"
}

fs_linux_args()
{
	echo "fstype=$FS${FS_OPTS:+ mountopts=$FS_OPTS}"
}

fs_label()
{
	local what=$FS_OPTS
	[[ $FS_MKFS != "$FS" ]] && what="$FS_MKFS image${what:+, $what}"
	echo "$FS${what:+ ($what)}"
}
