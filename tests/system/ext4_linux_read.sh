# Linux 6.1 reads what cgwb wrote on ext4 (scripts/compare/ext4-interop, case read): cgwb
# writes a tree through its journal on a Debian ext4 image (large, sparse, grown and cut
# files, a rename, a hard link, symlinks, names added to and removed from an indexed
# directory), syncs and powers off; Debian's kernel mounts the image read-only and every
# file's sha256, every directory's listing with inode numbers and the symlinks' targets
# equal what cgwb printed; e2fsck -fn finds the image clean. Skipped (not passed) when
# Debian's packages cannot be fetched, e.g. offline.
"$SYS_ROOT/scripts/compare/ext4-interop" -o "$T/interop" read > "$T/interop.out" 2>&1
rc=$?
if [[ $rc -eq 3 ]]; then
	skip "Debian's linux-image and busybox-static cannot be fetched ($(tail -n 1 "$T/interop.out"))"
	return 0
fi
[[ $rc -eq 0 ]] || fail "ext4-interop read exited with $rc: $(grep -m3 'FAIL' "$T/interop.out" | tr '\n' '|')"
grep -q '^ext4-interop read: 8 checksums, 4 listings, 2 symlinks compared$' "$T/interop.out" ||
	fail "ext4-interop read did not compare the tree: $(tail -n 2 "$T/interop.out" | tr '\n' '|')"
