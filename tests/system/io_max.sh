# The io controller from the shell: io.max set, read back, cleared and refused; a direct
# dd in a group limited to 1 MiB/s takes about 2 s for 2 MiB and io.stat counts exactly its
# bytes and IOs, in the group and (hierarchically) in the root. The precise rate checks are
# the host simulation's (test_blk_throttle_sim.c); QEMU's clock only allows a wide margin.
truncate -s 16M "$T/a.raw"
guest_script <<'GUEST'
cd /sys/fs/cgroup
echo +io > cgroup.subtree_control
echo control=$?
mkdir A
echo "254:0 wbps=1048576" > A/io.max
echo set=$?
cat A/io.max
echo "254:0 wbps=0" > A/io.max
echo zero=$?
echo "254:0 wbps=5 bogus=1" > A/io.max
echo key=$?
echo "254:0 wbps=12x" > A/io.max
echo value=$?
echo "9:9 wbps=5" > A/io.max
echo nodev=$?
echo "garbage" > A/io.max
echo garbage=$?
echo 1 > A/io.stat
echo statwrite=$?
echo unchanged:
cat A/io.max
cat io.max
echo rootmax=$?
cgexec -g A dd if=/dev/zero of=/dev/vda bs=64K count=32 oflag=direct
echo dd=$?
echo stat:
cat A/io.stat
echo rootstat:
cat io.stat
echo "254:0 riops=100 wbps=max" > A/io.max
cat A/io.max
echo "254:0 riops=max" > A/io.max
echo cleared:
cat A/io.max
echo end
poweroff 0
GUEST
run_guest --disk "$T/a.raw"
limit='254:0 rbps=max wbps=1048576 riops=max wiops=max'
stat='254:0 rbytes=0 wbytes=2097152 rios=0 wios=32 dbytes=0 dios=0'
expect_status 0
expect_line 'control=0'
expect_line 'set=0'
expect_count 2 "^$limit\$"
expect_output '^echo: .*Numerical result out of range'
expect_line 'zero=1'
expect_line 'key=1'
expect_line 'value=1'
expect_output '^echo: .*No such device'
expect_line 'nodev=1'
expect_line 'garbage=1'
expect_line 'statwrite=1'
sed -n '/^unchanged:$/,/^rootmax=/p' "$OUT" | grep -qx "$limit" ||
	fail "io.max changed by a refused write"
expect_line 'rootmax=1'
expect_line 'dd=0'
expect_line '32+0 records out'
sed -n '/^stat:$/,/^rootstat:$/p' "$OUT" | grep -qx "$stat" ||
	fail "A's io.stat is not dd's 2 MiB in 32 writes"
root_wbytes=$(sed -n '/^rootstat:$/,/^254:0 rbps/p' "$OUT" |
	sed -n 's/^254:0 .*wbytes=\([0-9]*\) .*/\1/p')
expect_num root_wbytes "$root_wbytes" -ge 2097152
expect_line '254:0 rbps=max wbps=max riops=100 wiops=max'
[[ -z $(sed -n '/^cleared:$/,/^end$/p' "$OUT" | grep '^254:') ]] ||
	fail "io.max lists a device without limits"
# 2 MiB at 1 MiB/s: 1.9 s at least (the first slice is a 0.1 s burst); a busy host only slows
# the guest, and how close to its limit a group runs is the simulator's to check
secs=$(sed -n 's/^2097152 bytes .* copied, \([0-9.]*\) s, .*/\1/p' "$OUT")
[[ -n $secs ]] || fail "no dd summary line"
awk -v s="$secs" 'BEGIN { exit !(s >= 1.5) }' || fail "dd took $secs s at 1 MiB/s"
