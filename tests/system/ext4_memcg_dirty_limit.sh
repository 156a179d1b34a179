# The memcg dirty limit (memcg_dirty_limit.sh) on an ext4 disk with its journal (Debian's
# mke2fs defaults, data=ordered): a group with memory.max 64M writing 128 MiB keeps its
# dirty and writeback pages to its domain's limit, needs no oom; e2fsck -fn clean.
TEST_FS=ext4
source "$SYS_ROOT/tests/system/memcg_dirty_limit.sh"
