# The dirty-throttling policy knobs of /proc/sys/vm: dirty_policy selects one by name among
# dirty_available_policies; each policy's parameters have their ranges;
# dirty_bandwidth_seconds keeps its meaning (N selects the bandwidth policy, 0 Linux's); a
# group writes under the fixed policy.
mke2fs -q -F -t ext2 "$T/disk.img" 64M > /dev/null 2>&1 || fail "mke2fs"
guest_script <<'GUEST'
echo available=$(cat /proc/sys/vm/dirty_available_policies)
echo policy=$(cat /proc/sys/vm/dirty_policy) secs=$(cat /proc/sys/vm/dirty_bandwidth_seconds)
echo fixed > /proc/sys/vm/dirty_policy
echo rc-fixed=$? policy=$(cat /proc/sys/vm/dirty_policy) kb=$(cat /proc/sys/vm/dirty_fixed_kbytes)
echo nope > /proc/sys/vm/dirty_policy
echo rc-nope=$? policy=$(cat /proc/sys/vm/dirty_policy)
echo 5 > /proc/sys/vm/dirty_bandwidth_seconds
echo rc-secs=$? policy=$(cat /proc/sys/vm/dirty_policy) secs=$(cat /proc/sys/vm/dirty_bandwidth_seconds)
echo 61 > /proc/sys/vm/dirty_bandwidth_seconds
echo rc-secs-big=$? secs=$(cat /proc/sys/vm/dirty_bandwidth_seconds)
echo 0 > /proc/sys/vm/dirty_bandwidth_seconds
echo rc-off=$? policy=$(cat /proc/sys/vm/dirty_policy) secs=$(cat /proc/sys/vm/dirty_bandwidth_seconds)
echo bandwidth > /proc/sys/vm/dirty_policy
echo policy=$(cat /proc/sys/vm/dirty_policy) secs=$(cat /proc/sys/vm/dirty_bandwidth_seconds)
echo 0 > /proc/sys/vm/dirty_bandwidth_slow_ratio
echo rc-ratio-zero=$? ratio=$(cat /proc/sys/vm/dirty_bandwidth_slow_ratio)
echo 3 > /proc/sys/vm/dirty_fixed_kbytes
echo rc-kb-small=$?
echo fixed > /proc/sys/vm/dirty_policy
echo 512 > /proc/sys/vm/dirty_fixed_kbytes
mkdir /sys/fs/cgroup/g
sh -c 'echo $$ > /sys/fs/cgroup/g/cgroup.procs; dd if=/dev/zero of=/mnt/f bs=1M count=4 conv=fsync 2> /dev/null'
echo rc-dd=$?
poweroff 0
GUEST
run_guest --disk "$T/disk.img" --timeout 120
expect_status 0
expect_line 'available=linux bandwidth fixed'
expect_line 'policy=linux secs=0'
expect_line 'rc-fixed=0 policy=fixed kb=16384'
expect_line 'rc-nope=1 policy=fixed'
expect_line 'rc-secs=0 policy=bandwidth secs=5'
expect_line 'rc-secs-big=1 secs=5'
expect_line 'rc-off=0 policy=linux secs=0'
expect_line 'policy=bandwidth secs=5'
expect_line 'rc-ratio-zero=1 ratio=25'
expect_line 'rc-kb-small=1'
expect_line 'rc-dd=0'
expect_no_log 'Kernel panic|kernel BUG|WARNING'
