# /sys/class/bdi/254:0: the device's share of the dirty threshold, with Linux's files,
# defaults, parsing and errors (refused values change nothing), and BdiDirtyThresh in
# debugfs as the sum over the device's writeback contexts; stable_pages_required as Linux 6.1
# keeps it (0, deprecated).
truncate -s 64M "$T/disk.img"
guest_script <<'GUEST'
cd /sys/class/bdi/254:0
ls
echo defaults: $(cat min_ratio) $(cat max_ratio) $(cat min_ratio_fine) $(cat max_ratio_fine) $(cat strict_limit) $(cat min_bytes)
echo stable: $(cat stable_pages_required) $(cat stable_pages_required) $(cat /sys/block/vda/queue/stable_writes)
echo 101 > max_ratio
echo max101=$?
echo abc > min_ratio
echo minabc=$?
echo -1 > min_ratio
echo minneg=$?
echo 30 > max_ratio
echo max30=$?
echo 40 > min_ratio
echo min40=$?
echo 10 > min_ratio
echo min10=$?
echo now: $(cat min_ratio) $(cat max_ratio) $(cat min_ratio_fine) $(cat max_ratio_fine)
echo 5 > max_ratio
echo max5=$?
echo 2 > strict_limit
echo strict2=$?
echo 1 > strict_limit
echo strict1=$? $(cat strict_limit)
echo 0 > strict_limit
echo 0 > min_ratio
echo 100 > max_ratio
echo 1048576 > max_bytes
echo maxbytes=$?
echo bytes: $(cat max_bytes) $(cat max_ratio_fine)
echo 100 > max_ratio
echo 999999999999 > min_bytes
echo minbig=$?
echo 2500 > min_ratio_fine
echo fine=$? $(cat min_ratio_fine) $(cat min_ratio)
grep -E '^(BdiDirtyThresh|DirtyThresh):' /sys/kernel/debug/bdi/254:0/stats
poweroff 0
GUEST
run_guest --disk "$T/disk.img"
expect_status 0
for f in min_ratio max_ratio min_ratio_fine max_ratio_fine min_bytes max_bytes strict_limit \
	stable_pages_required; do
	expect_line "$f"
done
expect_line 'defaults: 0 100 0 1000000 0 0'
# Linux 6.1: always 0, and a warning once that points to the queue's stable_writes
expect_line 'stable: 0 0 0'
[[ $(grep -c 'stable_pages_required attribute has been removed' "$LOG") -eq 1 ]] ||
	fail "the stable_pages_required warning is not in the log exactly once"
expect_line 'max101=1'
expect_line 'minabc=1'
expect_line 'minneg=1'
expect_line 'max30=0'
expect_line 'min40=1'
expect_line 'min10=0'
expect_line 'now: 10 30 100000 300000'
expect_line 'max5=1'
expect_line 'strict2=1'
expect_line 'strict1=0 1'
expect_line 'maxbytes=0'
# 1 MiB as a ratio of the global threshold (tens of MiB at 512 MiB): a few percent
expect_output '^bytes: 10[0-9]{5} [0-9]{4,5}$'
expect_line 'minbig=1'
expect_line 'fine=0 2500 0'
expect_output 'Invalid argument'
# with one wb (the root's) the sum is its share: at most the global threshold
bdi=$(sed -n 's/^BdiDirtyThresh: *\([0-9]*\) kB$/\1/p' "$OUT")
glob=$(sed -n 's/^DirtyThresh: *\([0-9]*\) kB$/\1/p' "$OUT")
expect_num BdiDirtyThresh "$bdi" -le "$glob"
expect_num BdiDirtyThresh "$bdi" -gt 0
expect_no_log 'Kernel panic|kernel BUG|WARNING'
