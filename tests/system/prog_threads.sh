# Threads (tests/programs/threads.c, glibc's pthreads: clone with the thread flags, futex,
# set_tid_address) on two CPUs: eight threads share a counter under a mutex (exactly 80000),
# meet at a condition variable, write a file each and are joined, with getpid() the same in
# all; exit() in one thread ends the process with its status while the others sleep in a
# futex wait; a NULL dereference in a thread ends the whole process (139), as does abort()
# in a thread (134: SIGABRT sent to that thread alone); the signals whose default is to be
# ignored (SIGCHLD, SIGWINCH, SIGURG, SIGCONT) end nothing; a first thread's pthread_exit
# leaves the process to the others (status 0 from the last one's return, 7 from its
# exit(7)); threads count
# against pids.max (a group at 5 holds the first and four more). No thread is left behind.
# System V shared memory (tests/programs/shm.c): four forked processes count under a
# process-shared mutex in a segment removed right after its attach, and meet at a
# process-shared condition variable (shared futexes keyed by the memory, not the address
# space); shmget, shmat, shmdt and shmctl's errors as Linux's. poll and select sleep until
# a pipe or a timerfd wakes them (tests/programs/pollers.c), a timerfd re-armed sooner by
# another thread included.
programs_image "$T/prog.img" 64M
guest_script <<'GUEST'
/mnt/bin/threads count 8
echo count=$?
cat /mnt/thread0 /mnt/thread7
/mnt/bin/threads exitgroup
echo exitgroup=$?
/mnt/bin/threads crash
echo crash=$?
/mnt/bin/pollers
/mnt/bin/shm 4
echo shm=$?
/mnt/bin/threads abort
echo abort=$?
/mnt/bin/threads signals
echo signals=$?
/mnt/bin/threads leaderexit 0
echo leaderexit=$?
/mnt/bin/threads leaderexit 7
echo leaderexit=$?
cd /sys/fs/cgroup
echo +pids > cgroup.subtree_control
mkdir T
echo 5 > T/pids.max
cgexec -g T /mnt/bin/threads spawn 10
echo spawn=$?
echo left=$(ps | grep -c threads)
poweroff 0
GUEST
run_guest --disk "$T/prog.img" --smp 2 --timeout 120
expect_status 0
expect_line "8 threads: counter 80000, 0 bad, tid == pid"
expect_line "count=0"
expect_output "^thread 0 tid [0-9]+$"
expect_output "^thread 7 tid [0-9]+$"
expect_line "exitgroup=5"
expect_line "crash=139"
expect_line "abort=134"
for c in "poll woken by a pipe" "select woken by a pipe" "poll timing out" \
	"poll sees the writer gone" "poll woken by a timerfd" \
	"poll woken by a timerfd re-armed sooner"; do
	expect_line "$c: ok"
done
expect_line "shm: 4 processes, counter 40000"
expect_line "shm=0"
expect_line "shm: attach after IPC_RMID: Invalid argument"
expect_line "shm: again with IPC_EXCL: File exists"
expect_line "shm: same key: same id"
expect_line "shm: no such key: No such file or directory"
expect_line "shm: size 0: Invalid argument"
expect_line "shm: unaligned address: Invalid argument"
expect_line "shm: IPC_STAT size 12288 nattch 1"
expect_line "shm: detach a non-segment: Invalid argument"
expect_line "shm: detach: ok"
expect_line "shm: remove: ok"
expect_line "shm: remove again: Invalid argument"
expect_line "ignored signals: still here"
expect_line "signals=0"
expect_count 2 "^a thread outlived the first one$"
expect_line "leaderexit=0"
expect_line "leaderexit=7"
expect_line "made 4 threads, then error 11"
expect_line "spawn=0"
expect_line "left=0"
