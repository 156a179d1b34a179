# io.cost's files from the shell, as Linux 6.1 has them: io.weight in each child (not the
# root), io.cost.qos and io.cost.model on the root only; what they read back, the error of
# each kind of bad line (and that it changes nothing), and io.stat's cost.* keys once
# io.cost is enabled: a direct dd in a weighted group is charged device time. The
# controller's dynamics are the host simulation's (tests/host/sim/test_sim_iocost.c).
truncate -s 16M "$T/a.raw"
guest_script <<'GUEST'
cd /sys/fs/cgroup
echo +io > cgroup.subtree_control
mkdir A
if [ -e io.weight ] || [ -e A/io.cost.qos ] || [ -e A/io.cost.model ]; then echo present; else echo absent; fi
echo qos0:
cat io.cost.qos
echo weight0:
cat A/io.weight
echo "254:0 200" > A/io.weight
echo notsupp=$?
echo "254:0 enable=1 ctrl=user rpct=95 rlat=75000 wpct=95.5 wlat=150000 min=50 max=150" > io.cost.qos
echo qos=$?
cat io.cost.qos
echo "254:0 ctrl=user model=linear wbps=4194304 wseqiops=1000000 wrandiops=1000000" > io.cost.model
echo model=$?
cat io.cost.model
echo "254:0 min=200 max=100" > io.cost.qos
echo minmax=$?
echo "254:0 rpct=101" > io.cost.qos
echo rpct=$?
echo "254:0 model=quadratic" > io.cost.model
echo quadratic=$?
echo "9:9 enable=1" > io.cost.qos
echo qosnodev=$?
echo 300 > A/io.weight
echo dfl=$?
echo "254:0 200" > A/io.weight
echo dev=$?
echo 0 > A/io.weight
echo zero=$?
echo "default 10001" > A/io.weight
echo big=$?
echo "254:0 abc" > A/io.weight
echo devabc=$?
echo "9:9 50" > A/io.weight
echo nodev=$?
echo weight:
cat A/io.weight
echo qos-after:
cat io.cost.qos
cgexec -g A dd if=/dev/zero of=/dev/vda bs=64K count=16 oflag=direct
echo dd=$?
echo stat:
cat A/io.stat
echo rootstat:
cat io.stat
echo "254:0 default" > A/io.weight
cat A/io.weight
echo end
poweroff 0
GUEST
run_guest --disk "$T/a.raw"
qos='254:0 enable=1 ctrl=user rpct=95.00 rlat=75000 wpct=95.50 wlat=150000 min=50.00 max=150.00'
expect_status 0
expect_no_log 'Kernel panic|kernel BUG|WARNING'
expect_line 'absent'
[[ -z $(sed -n '/^qos0:$/,/^weight0:$/p' "$OUT" | grep '^254:') ]] ||
	fail "io.cost.qos lists a disk before it was configured"
expect_line 'default 100'
expect_output '^echo: .*Operation not supported'
expect_line 'notsupp=1'
expect_line 'qos=0'
expect_count 2 "^$qos\$"
expect_line 'model=0'
expect_line '254:0 ctrl=user model=linear rbps=174019176 rseqiops=41708 rrandiops=370 wbps=4194304 wseqiops=1000000 wrandiops=1000000'
for v in minmax rpct quadratic zero big devabc; do
	expect_line "$v=1"
done
expect_output '^echo: .*Invalid argument'
expect_output '^echo: .*No such device'
expect_line 'qosnodev=1'
expect_line 'nodev=1'
expect_line 'dfl=0'
expect_line 'dev=0'
sed -n '/^weight:$/,/^qos-after:$/p' "$OUT" | tr '\n' '|' | grep -q '^weight:|default 300|254:0 200|qos-after:|$' ||
	fail "io.weight does not read 'default 300' and '254:0 200'"
expect_line 'dd=0'
line=$(sed -n '/^stat:$/,/^rootstat:$/p' "$OUT" | grep '^254:0 ')
[[ $line =~ ^254:0\ rbytes=0\ wbytes=1048576\ rios=0\ wios=16\ dbytes=0\ dios=0\ cost\.usage=([0-9]+)\ cost\.wait=[0-9]+\ cost\.indebt=[0-9]+\ cost\.indelay=[0-9]+$ ]] ||
	fail "A's io.stat has no cost.* keys: $line"
# 1 MiB at a model of 4 MiB/s is 250 ms of device time
usage=${BASH_REMATCH[1]}
expect_num usage "$usage" -ge 200000
expect_num usage "$usage" -le 300000
sed -n '/^rootstat:$/,/^end$/p' "$OUT" | grep -q '^254:0 .* cost\.vrate=[0-9]*\.[0-9][0-9] cost\.usage=' ||
	fail "the root's io.stat has no cost.vrate"
sed -n '/^rootstat:$/,/^end$/p' "$OUT" | grep -qx 'default 300' ||
	fail "'254:0 default' did not take the disk's weight back"
