# Linux programs: Debian's static C library runs unmodified (start-up, stdio, the heap by brk
# and mmap, files written, fsync'd and read back, argv, exit status), four at once on two
# CPUs, under cgexec with the group's io.stat and memory.stat counting what the program did.
# Bad programs end with the signal's status and a log line as Linux's (wild, NULL and kernel
# pointers, an illegal instruction, a division by zero), bad pointers given to system calls
# return -EFAULT, an unknown system call -ENOSYS with one log line, a program over its group's
# memory.max is OOM-killed, kill ends a spinning one; what cannot be run is refused with a
# message (no file, not executable, not ELF, dynamically linked). The kernel keeps running and
# the disk stays e2fsck-clean (the harness checks). A fork bomb in a group at pids.max 20
# stops at 19 children with EAGAIN, counted in pids.events. The raw_syscalls events follow a
# program's calls in Linux's format, and their system has its tracefs files. The calls
# around writeback (tests/programs/filecalls.c): statx, sync_file_range writing a range to
# the disk, fallocate and posix_fallocate (ext4's unwritten extents), and
# fadvise DONTNEED taking clean pages out of the cache; descriptors up to RLIMIT_NOFILE (256),
# then EMFILE.
programs_image "$T/prog.img" 64M
head -c 200 "$PROGRAMS/hello" > "$T/progtree/truncated"
guest_script <<'GUEST'
/mnt/bin/filecalls /mnt/fc
/mnt/bin/hello /mnt/rt 7
echo hello-status=$?
cat /mnt/rt
cd /sys/fs/cgroup
echo +memory > cgroup.subtree_control
echo +io > cgroup.subtree_control
mkdir P S
cgexec -g P /mnt/bin/hello /mnt/rt2
echo cgexec-status=$?
echo P-io: $(cat P/io.stat)
cgexec -g P /mnt/bin/faults eat 16 /sys/fs/cgroup/P/memory.stat
echo P-after: $(grep "^anon " P/memory.stat)
echo 16M > S/memory.max
cgexec -g S /mnt/bin/faults eat 64
echo oom-status=$?
echo S-events: $(cat S/memory.events)
for w in wild null kernel ud2 div; do /mnt/bin/faults $w; echo $w-status=$?; done
/mnt/bin/faults enosys
/mnt/bin/faults enosys
/mnt/bin/faults badptr
/mnt/bin/faults badtid
/mnt/bin/faults stack
echo stack-status=$?
/mnt/bin/faults spin &
/mnt/bin/hello /mnt/a1 > /dev/null &
/mnt/bin/hello /mnt/a2 > /dev/null &
/mnt/bin/hello /mnt/a3 > /dev/null &
/mnt/bin/hello /mnt/a4 > /dev/null &
wait %2 %3 %4 %5
echo parallel-status=$?
cat /mnt/a1 /mnt/a4
ps | grep faults
kill %1
wait %1
echo spin-status=$?
/mnt/bin/none
echo none-status=$?
/mnt/rt
echo noexec-status=$?
/mnt/bin/hello-dynamic
echo dynamic-status=$?
echo +pids > cgroup.subtree_control
mkdir B
echo 20 > B/pids.max
cgexec -g B /mnt/bin/faults forkbomb
echo bomb=$?
echo B-pids: $(cat B/pids.events) current $(cat B/pids.current)
echo 1 > /sys/kernel/tracing/events/raw_syscalls/enable
/mnt/bin/hello /mnt/traced 9 > /dev/null
echo 0 > /sys/kernel/tracing/events/raw_syscalls/enable
grep -E "hello-[0-9]+ .* sys_(enter: NR 231 |exit: NR 1 = )" /sys/kernel/tracing/trace
cat /sys/kernel/tracing/events/raw_syscalls/enable
echo sync; sync
poweroff 0
GUEST
run_guest --disk "$T/prog.img" --smp 2 --timeout 120
expect_status 0
expect_line "hello from /mnt/bin/hello with 2 args: /mnt/rt 7"
expect_line "heap ok 1"
expect_line "file /mnt/rt size 11"
expect_line "hello-status=7"
expect_line "cgexec-status=0"
expect_output "^P-io: [0-9]+:[0-9]+ rbytes=[0-9]+ wbytes=[0-9]+"
wbytes=$(sed -n 's/^P-io: .*wbytes=\([0-9]*\).*/\1/p' "$OUT")
expect_num "P's io.stat wbytes after the fsync'd file" "${wbytes:-x}" -ge 1024
anon=$(awk '$1 == "anon" { print $2; exit }' "$OUT")
expect_num "anon in memory.stat while 16 MiB are touched" "${anon:-x}" -ge $((16 << 20))
expect_line "ate 16 MiB"
expect_line "P-after: anon 0"
expect_line "oom-status=137"
expect_output "^S-events: .*oom_kill 1"
for w in wild null kernel; do expect_line "$w-status=139"; done
expect_line "ud2-status=132"
expect_line "div-status=136"
expect_count 3 "^Segmentation fault$"
expect_line "Illegal instruction"
expect_line "Floating point exception"
expect_log "faults\[[0-9]+\]: segfault at deadbeef ip [0-9a-f]+ sp [0-9a-f]+ error 6"
expect_log "faults\[[0-9]+\]: segfault at 0 ip"
expect_log "faults\[[0-9]+\]: segfault at ffff888000100000 ip .* error 5"
expect_count 2 "^syscall 449: -1 errno 38$"
[[ $(grep -ac "system call 449 not implemented" "$LOG") -ge 1 ]] || fail "no log line for system call 449"
expect_line "bad user pointer: -1 errno 14; kernel pointer: -1 errno 14"
expect_line "deep recursion: 1000"
expect_line "stack-status=0"
expect_line "parallel-status=0"
expect_count 3 "^round trip$" # /mnt/rt, a1 and a4
expect_output "^ +[0-9]+ R .* faults$"
expect_line "spin-status=130"
expect_line "/mnt/bin/none: No such file or directory"
expect_line "none-status=127"
expect_line "/mnt/rt: Permission denied"
expect_line "noexec-status=126"
expect_line "/mnt/bin/hello-dynamic: dynamically linked: cgwb runs static programs only"
expect_line "dynamic-status=126"
expect_output "^ +hello-[0-9]+ +\\[00[01]\\] [^ ]+ +[0-9.]+: sys_enter: NR 231 \\(9, "
expect_output "^ +hello-[0-9]+ +\\[00[01]\\] [^ ]+ +[0-9.]+: sys_exit: NR 1 = [0-9]+$"
expect_line "forked 19, then errno 11"
expect_line "bomb=0"
expect_line "B-pids: max 1 current 0"
expect_log "cgroup: fork rejected by pids controller in /B"
expect_line "clone with a kernel tid address: ran, status 3"
for c in "statx path" "statx fd" "statx bad flags" "sync_file_range" "sync_file_range bad flags" \
	"sync_file_range pipe" "fallocate" "fallocate read-only" "posix_fallocate" "fsync" \
	"fadvise DONTNEED" "descriptors up to RLIMIT_NOFILE"; do
	expect_line "$c: ok"
done
