# io.cost's shares (io_cost_shares.sh) on files of an ext4 disk with its journal (Debian's
# mke2fs defaults): groups of weights 100 and 300 each dirty 16 MiB of a file, then fsync
# it, both at once, on a 16 MB/s disk; the heavier is first, with 1.5 to 4.5 times the
# other's bytes. Mounted data=writeback: in data=ordered the commit B's fsync forces writes
# A's data too, at A's weight, and B waits for it (docs/ext4.md, "Not yet"): both end with
# their 16 MiB written, no share shows.
TEST_FS=ext4
TEST_FS_OPTS=data=writeback
# Writeback's pages go out in the flusher's batches, not 16 bios kept in flight as on the
# raw disk: 2.0 to 2.6 in 12 runs here at -smp 1 and 2. Under 1.5 the weights are lost.
# system-test: alone (its shares need the host's CPUs: tests/system/run)
IOCOST_MIN_RATIO=150
source "$SYS_ROOT/tests/system/io_cost_shares.sh"
