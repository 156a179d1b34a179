# The foreign-inode switch (cgwb_foreign.sh) on an ext4 disk with its journal (Debian's
# mke2fs defaults, data=ordered): B's rewrites of A's file are charged to A until the inode
# moves to B's wb, then never again; the audit and wb_stats agree; e2fsck -fn clean.
TEST_FS=ext4
source "$SYS_ROOT/tests/system/cgwb_foreign.sh"
