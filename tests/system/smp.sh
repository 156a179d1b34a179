# Several CPUs: two are started and listed (nproc, /proc/cpuinfo, /proc/stat), taskset pins
# a command (ps shows it on that CPU) and refuses what is no CPU list or mask, nr_cpus=N
# starts fewer, one CPU comes with a second listed absent; vfree() shoots down the other
# CPUs' translations.
guest_script <<'GUEST'
echo nproc=$(nproc)
echo processors=$(grep -c '^processor' /proc/cpuinfo)
grep '^cpu' /proc/stat
echo pinned=$(taskset -c 1 nproc)
taskset -c 1 ps
taskset 1 ps
taskset -c 9 true
echo rc-nine=$?
taskset -c 1-0 true
echo rc-backwards=$?
taskset 0 true
echo rc-zero=$?
taskset -c 1
echo rc-usage=$?
poweroff 0
GUEST
run_guest --smp 2
expect_status 0
expect_log 'smp: 2 of 2 CPUs running'
expect_line 'nproc=2'
expect_line 'processors=2'
expect_output '^cpu  0 0 [0-9]+ [0-9]+ 0 0 0 0 0 0$'
expect_output '^cpu0 0 0 [0-9]+ [0-9]+'
expect_output '^cpu1 0 0 [0-9]+ [0-9]+'
expect_line 'pinned=1'
expect_output '^ +[0-9]+ R +1 +[0-9:]+ / +ps$'
expect_output '^ +[0-9]+ R +0 +[0-9:]+ / +ps$'
expect_line 'taskset: failed to parse CPU list: 9'
expect_line 'rc-nine=1'
expect_line 'rc-backwards=1'
expect_line 'rc-zero=1'
expect_line 'rc-usage=2'

guest_script <<'GUEST'
echo nproc=$(nproc)
poweroff 0
GUEST
run_guest --smp 2 --append nr_cpus=1
expect_status 0
expect_log 'smp: 1 of 1 CPUs running'
expect_line 'nproc=1'

# One CPU is declared with room for a second, absent (scripts/qemu-cpus.sh): without it
# QEMU 7.2's TCG drops the guest's barriers, and virtio interrupts are lost now and then.
guest_script <<'GUEST'
echo nproc=$(nproc)
poweroff 0
GUEST
run_guest --smp 1
expect_status 0
expect_log 'smp: 1 of 1 CPUs running, 1 more listed absent'
expect_line 'nproc=1'

# vfree() takes its translations from the other CPUs before its pages and address are
# reused (a CPU that read the area reads the new page there, not the freed one).
guest_script <<'GUEST'
echo shootdown-checked
poweroff 0
GUEST
run_guest --smp 2 --append cgwb.selftest=tlb-shootdown
expect_status 0
expect_line 'shootdown-checked'
expect_log 'selftest: tlb-shootdown: ok'
