# System calls beyond the basic ones, as Linux 6.1 answers them (tests/programs/morecalls.c,
# whose checks pass on a Linux host too): sendfile from a file to a file and to a pipe, at
# the input's position or an offset, short at the end, its EBADF, EINVAL, ESPIPE and EFAULT
# cases; copy_file_range at positions and offsets, short at the end, and its EINVAL, EXDEV
# (from the ext4 disk to /tmp), EISDIR, EBADF, EOVERFLOW and EFAULT cases; clone3 making
# processes (struct sizes 64, 88 and 96 bytes, parent_tid, an exit_signal other than SIGCHLD)
# and threads (a raw clone3 as glibc's wrapper, glibc's clone, pthread_create), and its
# refusals (sizes, unknown and reserved flags, signals, stacks, set_tid, flag combinations);
# CLONE_FILES: threads share one descriptor table (an open, a close, a dup2, a pipe's write
# end closed under another thread's read), as does a process cloned with it, not one without;
# SIGCHLD set to SIG_IGN or SA_NOCLDWAIT reaps children as they end (wait4 then ECHILD);
# rt_sigtimedwait taking a pending signal or one sent meanwhile with its siginfo, a blocked
# SIGCHLD, in a thread a signal sent to the process, EAGAIN at its timeout, EINTR for a
# handled signal outside its set, and its EINVAL and EFAULT cases; real-time signals queued
# (sigqueue's values in the order sent, kill's instances each) where a standard one is not,
# a handler's si_value, rt_sigqueueinfo's EPERM, EINVAL and EFAULT.
programs_image "$T/prog.img" 64M
guest_script <<'GUEST'
mkdir /mnt/mc
/mnt/bin/morecalls /mnt/mc /tmp
echo morecalls=$?
poweroff 0
GUEST
run_guest --disk "$T/prog.img" --timeout 120
expect_status 0
for c in "sendfile at the input's position" "sendfile at an offset" \
	"sendfile past the end is short" "sendfile at the end moves nothing" \
	"sendfile of a whole file" "sendfile to a pipe" \
	"sendfile of a whole file to a pipe, a reader draining it" \
	"sendfile from a bad descriptor: EBADF" "sendfile to a bad descriptor: EBADF" \
	"sendfile from a write-only file: EBADF" "sendfile to a read-only file: EBADF" \
	"sendfile at a negative offset: EINVAL" "sendfile from a pipe: EINVAL" \
	"sendfile from a pipe at an offset: ESPIPE" "sendfile to an appending file: EINVAL" \
	"sendfile with a bad offset pointer: EFAULT" \
	"copy_file_range at the files' positions" "copy_file_range at offsets" \
	"copy_file_range past the end is short" "copy_file_range at the end copies nothing" \
	"copy_file_range within a file, no overlap" "copy_file_range with flags: EINVAL" \
	"copy_file_range to another file system: EXDEV" \
	"copy_file_range from a directory: EISDIR" \
	"copy_file_range to a read-only file: EBADF" \
	"copy_file_range to an appending file: EBADF" "copy_file_range to a pipe: EINVAL" \
	"copy_file_range from a bad descriptor: EBADF" \
	"copy_file_range overlapping within a file: EINVAL" \
	"copy_file_range at a negative offset: EOVERFLOW" \
	"copy_file_range with a bad offset pointer: EFAULT" \
	"clone3 makes a process" "clone3 with the first version's 64 bytes" \
	"clone3 with a larger struct, zeros past Linux's" \
	"clone3 with a larger struct, not zero past Linux's: E2BIG" \
	"clone3's exit_signal reaches the parent" "clone3 with a struct under 64 bytes: EINVAL" \
	"clone3 with a struct over a page: E2BIG" "clone3 with a bad pointer: EFAULT" \
	"clone3 with an unknown flag: EINVAL" "clone3 with a signal in its flags: EINVAL" \
	"clone3 with CLONE_DETACHED: EINVAL" "clone3 with exit_signal 65: EINVAL" \
	"clone3 of a thread with an exit_signal: EINVAL" \
	"clone3 with a stack and no size: EINVAL" "clone3 with a stack size and no stack: EINVAL" \
	"clone3 with set_tid_size and no set_tid: EINVAL" \
	"clone3 with CLONE_THREAD without CLONE_SIGHAND: EINVAL" \
	"clone3 with CLONE_SIGHAND without CLONE_VM: EINVAL" \
	"clone3 with CLONE_SIGHAND and CLONE_CLEAR_SIGHAND: EINVAL" "clone3 makes a thread" \
	"clone makes a thread too" "pthread_create (glibc tries clone3 first)" \
	"a descriptor a thread opens is its process's" \
	"a descriptor one thread closes is closed for the others" \
	"a descriptor a thread dups onto is its process's" \
	"a pipe's write end closed in one thread ends another's read" \
	"clone with CLONE_FILES shares the table with a process" \
	"clone without CLONE_FILES copies it" \
	"SIGCHLD ignored: wait4 waits for the children, then ECHILD" \
	"SIGCHLD ignored: wait4 for one child is ECHILD after its end" \
	"SIGCHLD ignored: a child that ended is gone already" \
	"SA_NOCLDWAIT: SIGCHLD still comes, wait4 is ECHILD" \
	"SIGCHLD back to SIG_DFL: a child waits to be reaped" \
	"rt_sigtimedwait takes a pending signal with its siginfo" \
	"rt_sigtimedwait waits for a signal sent meanwhile" \
	"rt_sigtimedwait takes a blocked SIGCHLD" "rt_sigtimedwait times out: EAGAIN" \
	"rt_sigtimedwait with a zero timeout polls: EAGAIN" \
	"rt_sigtimedwait interrupted by a handled signal: EINTR" \
	"rt_sigtimedwait in a thread takes a signal sent to the process" \
	"rt_sigtimedwait with a bad set size: EINVAL" "rt_sigtimedwait with a bad timeout: EINVAL" \
	"rt_sigtimedwait with a bad set pointer: EFAULT" \
	"rt_sigtimedwait with a bad timeout pointer: EFAULT" \
	"real-time signals queue, taken in the order sent with their values" \
	"kill of a real-time signal queues each instance" \
	"a standard signal pending is not queued twice" "a handler gets sigqueue's value" \
	"rt_sigqueueinfo posing as kill to another process: EPERM" \
	"rt_tgsigqueueinfo with a bad thread id: EINVAL" \
	"rt_sigqueueinfo with a bad siginfo pointer: EFAULT"; do
	expect_line "PASS $c"
done
expect_no_output "^FAIL"
expect_line "morecalls: 0 failed"
expect_line "morecalls=0"
