# Pressure stall information from the shell: /proc/pressure/{io,memory,cpu} and each
# cgroup's io.pressure, memory.pressure and cpu.pressure in Linux's format; a group whose
# direct writes io.max holds to 1 MiB/s spends most of its time in IO waits (some avg10
# well above 0, total about the dd's time), an idle group's pressure stays 0, and the
# pressure files stay when the io controller is disabled; a trigger Linux would take is
# taken, a bad one refused. The dynamics are the host tests' (tests/host/unit/test_psi.c).
truncate -s 16M "$T/a.raw"
guest_script <<'GUEST'
cd /sys/fs/cgroup
echo +io > cgroup.subtree_control
mkdir A B
echo "254:0 wbps=1048576" > A/io.max
echo proc:
cat /proc/pressure/io /proc/pressure/memory /proc/pressure/cpu
cgexec -g A dd if=/dev/zero of=/dev/vda bs=64K count=64 oflag=direct
echo A:
cat A/io.pressure
echo B:
cat B/io.pressure B/memory.pressure B/cpu.pressure
echo root:
cat io.pressure
echo "some 150000 1000000" > /proc/pressure/io
echo trigger=$?
echo "full 500000 2000000" > A/memory.pressure
echo cg-trigger=$?
echo "some 150000 100" > A/io.pressure
echo bad-trigger=$?
echo +memory > A/cgroup.subtree_control
echo -io > cgroup.subtree_control
ls A | grep pressure
echo end
poweroff 0
GUEST
run_guest --disk "$T/a.raw"
expect_status 0
expect_no_log 'Kernel panic|kernel BUG|WARNING'
expect_line 'trigger=0'
expect_line 'cg-trigger=0'
expect_line 'bad-trigger=1'
line_re='^(some|full) avg10=[0-9]+\.[0-9][0-9] avg60=[0-9]+\.[0-9][0-9] avg300=[0-9]+\.[0-9][0-9] total=[0-9]+$'
n=$(sed -n '/^proc:$/,/^end$/p' "$OUT" | grep -cE "$line_re")
expect_num "pressure lines" "$n" -eq 16
[[ $(sed -n '/^proc:$/,/^A:$/p' "$OUT" | grep -cE "$line_re") == 6 ]] ||
	fail "/proc/pressure/* are not two lines each in Linux's format"
some=$(sed -n '/^A:$/,/^B:$/p' "$OUT" | grep '^some')
[[ $some =~ avg10=([0-9]+)\.[0-9][0-9].*total=([0-9]+)$ ]] || fail "no some line for A: $some"
avg10=${BASH_REMATCH[1]}
total=${BASH_REMATCH[2]}
# 4 MiB at 1 MiB/s: dd waits nearly 4 s of it (the first slice goes at once)
expect_num "A io some avg10" "$avg10" -ge 10
expect_num "A io some total (us)" "$total" -ge 2500000
[[ $(sed -n '/^B:$/,/^root:$/p' "$OUT" | grep -cx '\(some\|full\) avg10=0.00 avg60=0.00 avg300=0.00 total=0') == 6 ]] ||
	fail "the idle group B has pressure"
sed -n '/^root:$/,/^end$/p' "$OUT" | grep -q '^some avg10=[1-9]' ||
	grep -q '^some avg10=0\.[0-9][1-9]' <(sed -n '/^root:$/,/^end$/p' "$OUT") ||
	fail "the root's io.pressure (the machine's) did not see A's waits"
for f in cpu.pressure io.pressure memory.pressure; do
	expect_line "$f"
done
