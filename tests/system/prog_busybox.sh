# Debian's busybox-static, unmodified: its shell forks, execs and waits for its applets and
# for other programs, pipes between them, command substitution, exit statuses; under cgexec
# the loop of dd conv=fsync, sha256sum and ls -l writes what the group's io.stat then counts.
# A program that forks children and is killed takes them with it; children outliving their
# parent are reaped by nobody and free themselves; the kernel stays up and e2fsck finds the
# disk clean (the harness checks).
[[ -x $PROGRAMS/busybox ]] || skip "Debian's busybox-static could not be downloaded"
programs_image "$T/prog.img" 96M
guest_script <<'GUEST'
cd /sys/fs/cgroup
echo +io > cgroup.subtree_control
mkdir G
cgexec -g G /mnt/bin/busybox sh -c 'for i in 1 2 3; do dd if=/dev/zero of=/mnt/f$i bs=1M count=8 conv=fsync; done; sha256sum /mnt/f*; ls -l /mnt'
echo bb-status=$?
echo G-io: $(cat G/io.stat)
/mnt/bin/busybox sh -c 'echo a b c | /mnt/bin/busybox wc -w; x=$(echo substituted); echo $x; /mnt/bin/hello /mnt/h1; echo hello=$?; exit 3'
echo sh-status=$?
/mnt/bin/busybox sh -c '/mnt/bin/faults null; echo child=$?; /mnt/bin/nothere; echo missing=$?'
/mnt/bin/busybox sh -c '/mnt/bin/faults spin & /mnt/bin/faults spin & wait' &
/mnt/bin/busybox sleep 0.2
ps | grep -c faults
kill %1
wait %1
echo killed-status=$?
/mnt/bin/busybox sh -c '(/mnt/bin/busybox sleep 0.3; echo orphan-done > /mnt/orphan) & exit 0'
echo parent-gone=$?
/mnt/bin/busybox sleep 1
cat /mnt/orphan
ps | grep -c faults
poweroff 0
GUEST
run_guest --disk "$T/prog.img" --smp 2 --timeout 180
expect_status 0
expect_count 3 "^2daeb1f36095b44b318410b3f4e8b5d989dcc7bb023d1426c492dab0a3053e74  /mnt/f[123]$"
expect_count 3 "^-rw-r--r-- +1 0 +0 +8388608 .* f[123]$"
expect_line "bb-status=0"
wbytes=$(sed -n 's/^G-io: .*wbytes=\([0-9]*\).*/\1/p' "$OUT")
expect_num "G's io.stat wbytes after 24 MiB dd conv=fsync" "${wbytes:-x}" -ge $((24 << 20))
expect_line "3"
expect_line "substituted"
expect_line "hello from /mnt/bin/hello with 1 args: /mnt/h1"
expect_line "hello=0"
expect_line "sh-status=3"
expect_line "child=139"
expect_count 1 "^Segmentation fault" # busybox sh says it, the kernel does not
expect_output "nothere: not found"
expect_line "missing=127"
expect_line "2"
expect_line "killed-status=130"
expect_line "parent-gone=0"
expect_line "orphan-done"
expect_line "0"
