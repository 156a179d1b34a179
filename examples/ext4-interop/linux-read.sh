# Linux reads the tree cgwb wrote on an ext4 image (scripts/compare/ext4-interop, case
# read; examples/ext4-interop/cgwb-write.sh): the checksum of every file under tree/, the
# listing of every directory and the symlinks' targets, in the lines cgwb printed.
cd /mnt || exit 1
find tree -type f | sort | while read f; do sha256sum $f; done
for d in tree tree/dir tree/dir/sub big; do echo "list $d $(ls -i $d | sort | sha256sum)"; done
echo "link fast $(readlink tree/fast)"
echo "link slow $(readlink tree/slow)"
