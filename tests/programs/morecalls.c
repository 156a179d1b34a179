/*
 * System calls static programs use beyond the basic ones, checked against Linux's answers
 * (tests/system/prog_morecalls.sh; the same checks pass on a Linux host):
 *
 *   morecalls DIR OTHER   every check: files are made in DIR, and OTHER is a directory on
 *                         another file system (copy_file_range's EXDEV)
 *
 * Each check prints "PASS name" or "FAIL name: why", then "morecalls: N failed".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <sched.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define SRC_SIZE 100000

static unsigned char pattern(long i)
{
	return (unsigned char)(i * 7 + i / 251);
}

/* Does fd hold the source's bytes [from, from + len) at at? */
static int holds(int fd, off_t at, long from, long len)
{
	unsigned char *buf = malloc((size_t)len);
	int ok = buf && pread(fd, buf, (size_t)len, at) == len;

	for (long i = 0; ok && i < len; i++)
		ok = buf[i] == pattern(from + i);
	if (!ok)
		snprintf(why, sizeof(why), "the data at %ld is not the source's at %ld", (long)at,
			 from);
	free(buf);
	return ok;
}

static char path_buf[4][512];

static const char *path_in(const char *dir, const char *name, int slot)
{
	snprintf(path_buf[slot], sizeof(path_buf[slot]), "%s/%s", dir, name);
	return path_buf[slot];
}

/* A SRC_SIZE-byte file of the pattern. */
static int make_source(const char *path)
{
	unsigned char *buf = malloc(SRC_SIZE);
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);

	for (long i = 0; buf && i < SRC_SIZE; i++)
		buf[i] = pattern(i);
	if (fd < 0 || !buf || write(fd, buf, SRC_SIZE) != SRC_SIZE) {
		perror("morecalls: source file");
		exit(2);
	}
	free(buf);
	return fd;
}

static int fresh(const char *path, int flags)
{
	int fd = open(path, flags | O_CREAT | O_TRUNC, 0644);

	if (fd < 0) {
		perror(path);
		exit(2);
	}
	return fd;
}

/* ---------------------------------------------------------------- sendfile */

static void sendfile_files(const char *dir, int in)
{
	int out = fresh(path_in(dir, "sf-out", 1), O_RDWR);
	off_t off;

	lseek(in, 1000, SEEK_SET);
	result("sendfile at the input's position",
	       expect(sendfile(out, in, NULL, 5000), 5000, "sendfile") &&
		       expect(lseek(in, 0, SEEK_CUR), 6000, "input position") &&
		       expect(lseek(out, 0, SEEK_CUR), 5000, "output position") &&
		       holds(out, 0, 1000, 5000));
	off = 2000;
	result("sendfile at an offset",
	       expect(sendfile(out, in, &off, 3000), 3000, "sendfile") &&
		       expect(off, 5000, "offset") &&
		       expect(lseek(in, 0, SEEK_CUR), 6000, "input position unchanged") &&
		       expect(lseek(out, 0, SEEK_CUR), 8000, "output position") &&
		       holds(out, 5000, 2000, 3000));
	off = SRC_SIZE - 1000;
	result("sendfile past the end is short",
	       expect(sendfile(out, in, &off, 10000), 1000, "sendfile") &&
		       expect(off, SRC_SIZE, "offset") && holds(out, 8000, SRC_SIZE - 1000, 1000));
	result("sendfile at the end moves nothing",
	       expect(sendfile(out, in, &off, 10000), 0, "sendfile") &&
		       expect(off, SRC_SIZE, "offset"));
	off = 0;
	result("sendfile of a whole file",
	       expect(lseek(out, 0, SEEK_SET), 0, "lseek") &&
		       expect(sendfile(out, in, &off, SRC_SIZE), SRC_SIZE, "sendfile") &&
		       holds(out, 0, 0, SRC_SIZE));
	close(out);
}

/* Does the pipe hold the source's first len bytes? */
static int pipe_holds(int fd, long len)
{
	unsigned char buf[4096];
	int ok = len <= (long)sizeof(buf) && read(fd, buf, (size_t)len) == len;

	for (long i = 0; ok && i < len; i++)
		ok = buf[i] == pattern(i);
	if (!ok)
		snprintf(why, sizeof(why), "the pipe does not hold the source's bytes");
	return ok;
}

/* A child reads the pipe to its end, checking the source's bytes in order: its status. */
static pid_t drain_pipe(int p[2])
{
	unsigned char buf[4096];
	long got = 0;
	int ok = 1;
	ssize_t n;
	pid_t pid = fork();

	if (pid)
		return pid;
	close(p[1]);
	while ((n = read(p[0], buf, sizeof(buf))) > 0)
		for (ssize_t i = 0; i < n; i++, got++)
			ok &= buf[i] == pattern(got);
	_exit(ok && got == SRC_SIZE ? 0 : 1);
}

static void sendfile_pipe(int in)
{
	int p[2], status = -1;
	off_t off = 0;
	long sent = 0, calls = 0, n = 0;
	pid_t reader;

	if (pipe(p))
		exit(2);
	result("sendfile to a pipe", expect(sendfile(p[1], in, &off, 1000), 1000, "sendfile") &&
					     expect(off, 1000, "offset") && pipe_holds(p[0], 1000));
	off = 0;
	reader = drain_pipe(p);
	close(p[0]);
	while (sent < SRC_SIZE && (n = sendfile(p[1], in, &off, SRC_SIZE - sent)) > 0) {
		sent += n;
		calls++;
	}
	close(p[1]);
	waitpid(reader, &status, 0);
	snprintf(why, sizeof(why), "sent %ld in %ld calls (last %ld, errno %d), reader's status %#x",
		 sent, calls, n, errno, status);
	result("sendfile of a whole file to a pipe, a reader draining it",
	       sent == SRC_SIZE && status == 0 && off == SRC_SIZE);
}

static void sendfile_errors(const char *dir, int in)
{
	int out = fresh(path_in(dir, "sf-err", 1), O_RDWR);
	int wronly = open(path_in(dir, "sf-err", 2), O_WRONLY);
	int rdonly = open(path_in(dir, "sf-err", 3), O_RDONLY);
	int app = open(path_in(dir, "sf-err", 0), O_WRONLY | O_APPEND);
	int p[2];
	off_t off = -1;

	if (pipe(p) || wronly < 0 || rdonly < 0 || app < 0)
		exit(2);
	result("sendfile from a bad descriptor: EBADF",
	       expect_err(sendfile(out, 999, NULL, 10), EBADF, "sendfile"));
	result("sendfile to a bad descriptor: EBADF",
	       expect_err(sendfile(999, in, NULL, 10), EBADF, "sendfile"));
	result("sendfile from a write-only file: EBADF",
	       expect_err(sendfile(out, wronly, NULL, 10), EBADF, "sendfile"));
	result("sendfile to a read-only file: EBADF",
	       expect_err(sendfile(rdonly, in, NULL, 10), EBADF, "sendfile"));
	result("sendfile at a negative offset: EINVAL",
	       expect_err(sendfile(out, in, &off, 10), EINVAL, "sendfile"));
	result("sendfile from a pipe: EINVAL",
	       expect_err(sendfile(out, p[0], NULL, 10), EINVAL, "sendfile"));
	off = 0;
	result("sendfile from a pipe at an offset: ESPIPE",
	       expect_err(sendfile(out, p[0], &off, 10), ESPIPE, "sendfile"));
	result("sendfile to an appending file: EINVAL",
	       expect_err(sendfile(app, in, NULL, 10), EINVAL, "sendfile"));
	result("sendfile with a bad offset pointer: EFAULT",
	       expect_err(sendfile(out, in, (off_t *)8, 10), EFAULT, "sendfile"));
	close(p[0]);
	close(p[1]);
	close(out);
	close(wronly);
	close(rdonly);
	close(app);
}

/* ---------------------------------------------------------------- copy_file_range */

static void copy_range_data(const char *dir, int in)
{
	int out = fresh(path_in(dir, "cfr-out", 1), O_RDWR);
	loff_t oin = 10, oout = 100;

	lseek(in, 0, SEEK_SET);
	result("copy_file_range at the files' positions",
	       expect(copy_file_range(in, NULL, out, NULL, SRC_SIZE, 0), SRC_SIZE, "copy") &&
		       expect(lseek(in, 0, SEEK_CUR), SRC_SIZE, "input position") &&
		       expect(lseek(out, 0, SEEK_CUR), SRC_SIZE, "output position") &&
		       holds(out, 0, 0, SRC_SIZE));
	result("copy_file_range at offsets",
	       expect(copy_file_range(in, &oin, out, &oout, 5000, 0), 5000, "copy") &&
		       expect(oin, 5010, "input offset") && expect(oout, 5100, "output offset") &&
		       expect(lseek(in, 0, SEEK_CUR), SRC_SIZE, "input position unchanged") &&
		       holds(out, 100, 10, 5000));
	oin = SRC_SIZE - 300;
	oout = 0;
	result("copy_file_range past the end is short",
	       expect(copy_file_range(in, &oin, out, &oout, 100000, 0), 300, "copy") &&
		       expect(oin, SRC_SIZE, "input offset") && holds(out, 0, SRC_SIZE - 300, 300));
	result("copy_file_range at the end copies nothing",
	       expect(copy_file_range(in, &oin, out, &oout, 100000, 0), 0, "copy"));
	oin = 0;
	oout = 50000;
	result("copy_file_range within a file, no overlap",
	       expect(copy_file_range(out, &oin, out, &oout, 1000, 0), 1000, "copy") &&
		       holds(out, 50000, SRC_SIZE - 300, 300));
	close(out);
}

static void copy_range_errors(const char *dir, const char *other, int in)
{
	int out = fresh(path_in(dir, "cfr-err", 1), O_RDWR);
	int far = fresh(path_in(other, "cfr-far", 2), O_RDWR);
	int rdonly = open(path_in(dir, "cfr-err", 1), O_RDONLY);
	int app = open(path_in(dir, "cfr-err", 1), O_WRONLY | O_APPEND);
	int dirfd = open(dir, O_RDONLY | O_DIRECTORY);
	loff_t a = 0, b = 100;
	int p[2];

	if (pipe(p) || rdonly < 0 || app < 0 || dirfd < 0)
		exit(2);
	result("copy_file_range with flags: EINVAL",
	       expect_err(copy_file_range(in, NULL, out, NULL, 10, 1), EINVAL, "copy"));
	result("copy_file_range to another file system: EXDEV",
	       expect_err(copy_file_range(in, NULL, far, NULL, 10, 0), EXDEV, "copy"));
	result("copy_file_range from a directory: EISDIR",
	       expect_err(copy_file_range(dirfd, NULL, out, NULL, 10, 0), EISDIR, "copy"));
	result("copy_file_range to a read-only file: EBADF",
	       expect_err(copy_file_range(in, NULL, rdonly, NULL, 10, 0), EBADF, "copy"));
	result("copy_file_range to an appending file: EBADF",
	       expect_err(copy_file_range(in, NULL, app, NULL, 10, 0), EBADF, "copy"));
	result("copy_file_range to a pipe: EINVAL",
	       expect_err(copy_file_range(in, NULL, p[1], NULL, 10, 0), EINVAL, "copy"));
	result("copy_file_range from a bad descriptor: EBADF",
	       expect_err(copy_file_range(999, NULL, out, NULL, 10, 0), EBADF, "copy"));
	if (copy_file_range(in, &a, out, NULL, 5000, 0) != 5000)
		perror("morecalls: copy_file_range");
	a = 0;
	result("copy_file_range overlapping within a file: EINVAL",
	       expect_err(copy_file_range(out, &a, out, &b, 1000, 0), EINVAL, "copy"));
	a = -5; /* Linux's check that offsets do not wrap sees it as a huge one */
	result("copy_file_range at a negative offset: EOVERFLOW",
	       expect_err(copy_file_range(in, &a, out, NULL, 10, 0), EOVERFLOW, "copy"));
	result("copy_file_range with a bad offset pointer: EFAULT",
	       expect_err(copy_file_range(in, (loff_t *)8, out, NULL, 10, 0), EFAULT, "copy"));
	close(p[0]);
	close(p[1]);
	close(out);
	close(far);
	close(rdonly);
	close(app);
	close(dirfd);
	unlink(path_in(other, "cfr-far", 2));
}

/* ---------------------------------------------------------------- O_DIRECT */

/* Aligned transfers go, a buffer, offset or length off the 512-byte sectors is EINVAL,
 * a read at the end of file returns 0 even off them, and the data reads back. */
static void direct_io(const char *dir)
{
	int fd = fresh(path_in(dir, "direct", 1), O_RDWR | O_DIRECT);
	char *buf = aligned_alloc(4096, 3 * 4096), *back = aligned_alloc(4096, 2 * 4096);
	int same = 1;

	if (!buf || !back)
		exit(2);
	for (int i = 0; i < 3 * 4096; i++)
		buf[i] = (char)pattern(i);
	result("O_DIRECT write of 8 KiB from an aligned buffer",
	       expect(pwrite(fd, buf, 8192, 0), 8192, "pwrite"));
	result("O_DIRECT write from a buffer off the sectors: EINVAL",
	       expect_err(pwrite(fd, buf + 1, 4096, 8192), EINVAL, "pwrite"));
	result("O_DIRECT write at an offset off the sectors: EINVAL",
	       expect_err(pwrite(fd, buf, 4096, 100), EINVAL, "pwrite"));
	result("O_DIRECT read of a length off the sectors: EINVAL",
	       expect_err(pread(fd, back, 1000, 0), EINVAL, "pread"));
	result("O_DIRECT read back of what was written",
	       expect(pread(fd, back, 8192, 0), 8192, "pread"));
	for (int i = 0; i < 8192; i++)
		same &= back[i] == buf[i];
	result("O_DIRECT data read back equal", same);
	result("O_DIRECT read at the end of file, off the sectors: 0",
	       expect(pread(fd, back + 1, 4096, 8192), 0, "pread"));
	result("O_DIRECT write of 512 bytes past the end: through a page, on disk",
	       expect(pwrite(fd, buf + 8192, 512, 8192), 512, "pwrite"));
	result("the file is 8704 bytes", expect(lseek(fd, 0, SEEK_END), 8704, "lseek"));
	free(buf);
	free(back);
	close(fd);
}

/* ---------------------------------------------------------------- fallocate */

/* The allocating modes on the disk's file system (ext4 for cgwb's tests): blocks that
 * read as zeros, writable, past the end with KEEP_SIZE, gone with a truncate. */
static void fallocate_modes(const char *dir)
{
	int fd = fresh(path_in(dir, "falloc", 1), O_RDWR);
	char buf[4096], back[4096];
	int zeros = 1;
	struct stat st;

	for (int i = 0; i < 4096; i++)
		buf[i] = (char)pattern(i);
	result("fallocate of 1 MiB", expect(fallocate(fd, 0, 0, 1 << 20), 0, "fallocate"));
	result("the file is 1 MiB, its blocks allocated",
	       !fstat(fd, &st) && st.st_size == 1 << 20 && st.st_blocks >= 2048);
	result("an allocated block reads as zeros",
	       expect(pread(fd, back, 4096, 512 << 10), 4096, "pread"));
	for (int i = 0; i < 4096; i++)
		zeros &= back[i] == 0;
	result("its bytes are zeros", zeros);
	result("a write into the allocated range, synced",
	       expect(pwrite(fd, buf, 4096, 64 << 10), 4096, "pwrite") && !fsync(fd));
	result("reads back", pread(fd, back, 4096, 64 << 10) == 4096 && !memcmp(back, buf, 4096));
	result("fallocate past the end with FALLOC_FL_KEEP_SIZE",
	       expect(fallocate(fd, FALLOC_FL_KEEP_SIZE, 1 << 20, 1 << 20), 0, "fallocate"));
	result("the size stays, the blocks grow",
	       !fstat(fd, &st) && st.st_size == 1 << 20 && st.st_blocks >= 4096);
	result("FALLOC_FL_PUNCH_HOLE without KEEP_SIZE: EOPNOTSUPP",
	       expect_err(fallocate(fd, FALLOC_FL_PUNCH_HOLE, 0, 4096), EOPNOTSUPP, "fallocate"));
	result("fallocate at a negative offset: EINVAL",
	       expect_err(fallocate(fd, 0, -4096, 4096), EINVAL, "fallocate"));
	result("a truncate gives the blocks past the end back",
	       !ftruncate(fd, 128 << 10) && !fstat(fd, &st) && st.st_blocks <= 256 + 16);
	close(fd);
}

/* ---------------------------------------------------------------- CLONE_FS */

static void *chdir_thread(void *dir)
{
	return (void *)(long)chdir(dir);
}

/* A thread's chdir moves its process (CLONE_FS), a child process's does not. */
static void fs_sharing(const char *dir)
{
	char before[256], after[256];
	pthread_t t;
	void *ret;
	int status;
	pid_t pid;

	if (!getcwd(before, sizeof(before)))
		exit(2);
	result("a thread's chdir", !pthread_create(&t, NULL, chdir_thread, (void *)dir) &&
					   !pthread_join(t, &ret) && !ret);
	result("moves the whole process (CLONE_FS)",
	       getcwd(after, sizeof(after)) && !strcmp(after, dir));
	if (chdir(before))
		exit(2);
	pid = fork();
	if (pid == 0)
		_exit(chdir(dir) ? 1 : 0);
	result("a child process's chdir", pid > 0 && waitpid(pid, &status, 0) == pid &&
						  WIFEXITED(status) && !WEXITSTATUS(status));
	result("leaves its parent where it was",
	       getcwd(after, sizeof(after)) && !strcmp(after, before));
}

/* ---------------------------------------------------------------- execve and threads */

static void *sleep_forever(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

/*
 * execve from a process's first thread ends its other threads, as Linux's de_thread(): the
 * new image (this program again, told to end its thread at once with exit, not
 * exit_group) ends the process. Were the sleeper left, the process would wait for it and
 * never end.
 */
static void exec_ends_threads(const char *self)
{
	int status = -1;
	pid_t pid = fork();

	if (pid == 0) {
		pthread_t t;

		if (pthread_create(&t, NULL, sleep_forever, NULL))
			_exit(3);
		execl(self, self, "--exit-zero", (char *)NULL);
		_exit(4);
	}
	for (int i = 0; pid > 0 && i < 500 && waitpid(pid, &status, WNOHANG) == 0; i++)
		usleep(10000);
	if (status == -1 && pid > 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
		snprintf(why, sizeof(why), "the process did not end in 5 s");
	}
	result("execve in a threaded process ends its other threads",
	       WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

/* ---------------------------------------------------------------- clone3 */

struct clone_args_v2 { /* Linux 6.1's struct clone_args */
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls;
	uint64_t set_tid, set_tid_size, cgroup;
};

#define THREAD_FLAGS                                                                        \
	(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM | \
	 CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID)

static long clone3_(void *args, size_t size)
{
	return syscall(SYS_clone3, args, size);
}

/* A process by clone3 that exits with status 7: its pid in the parent, or -1 (and why). */
static long clone3_child(void *args, size_t size)
{
	long pid = clone3_(args, size);

	if (pid == 0)
		_exit(7);
	if (pid < 0)
		snprintf(why, sizeof(why), "clone3: errno %d", errno);
	return pid;
}

static int exited_with(pid_t pid, int code, int options)
{
	int status = -1;

	if (waitpid(pid, &status, options) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) != code) {
		snprintf(why, sizeof(why), "child %d: status %#x (errno %d)", pid, status, errno);
		return 0;
	}
	return 1;
}

static void clone3_processes(void)
{
	unsigned char big[96] = { 0 };
	struct clone_args_v2 *a = (void *)big;
	pid_t ptid = 0;
	long pid;

	a->flags = CLONE_PARENT_SETTID;
	a->parent_tid = (uintptr_t)&ptid;
	a->exit_signal = SIGCHLD;
	pid = clone3_child(a, sizeof(*a));
	result("clone3 makes a process",
	       pid > 0 && expect(ptid, pid, "parent_tid") && exited_with((pid_t)pid, 7, 0));
	pid = clone3_child(a, 64);
	result("clone3 with the first version's 64 bytes", pid > 0 && exited_with((pid_t)pid, 7, 0));
	pid = clone3_child(a, sizeof(big));
	result("clone3 with a larger struct, zeros past Linux's",
	       pid > 0 && exited_with((pid_t)pid, 7, 0));
	big[90] = 1;
	result("clone3 with a larger struct, not zero past Linux's: E2BIG",
	       expect_err(clone3_(a, sizeof(big)), E2BIG, "clone3"));
}

static volatile sig_atomic_t usr1_seen;

static void on_usr1(int sig)
{
	(void)sig;
	usr1_seen = 1;
}

static void clone3_exit_signal(void)
{
	struct clone_args_v2 a = { .exit_signal = SIGUSR1 };
	sigset_t mask, old, pending;
	long pid;
	int ok;

	signal(SIGUSR1, on_usr1);
	sigemptyset(&mask);
	sigaddset(&mask, SIGUSR1);
	sigprocmask(SIG_BLOCK, &mask, &old);
	pid = clone3_child(&a, sizeof(a));
	/* a child whose exit signal is not SIGCHLD is waited for with __WALL on Linux */
	ok = pid > 0 && exited_with((pid_t)pid, 7, __WALL) && !sigpending(&pending) &&
	     expect(sigismember(&pending, SIGUSR1), 1, "SIGUSR1 pending after the child's end");
	sigprocmask(SIG_SETMASK, &old, NULL);
	result("clone3's exit_signal reaches the parent",
	       ok && expect(usr1_seen, 1, "SIGUSR1 handled at the unblock"));
	signal(SIGUSR1, SIG_DFL);
}

/* wait4 and a "clone" child (no exit signal): only __WCLONE or __WALL see it, as Linux's
 * eligible_child(); unknown options are EINVAL. */
static void wait_clone_children(void)
{
	struct clone_args_v2 a = { .exit_signal = 0 };
	long pid = clone3_child(&a, sizeof(a));
	int status;

	result("wait4 without __WCLONE does not see a child without an exit signal: ECHILD",
	       pid > 0 && expect_err(waitpid((pid_t)pid, &status, WNOHANG), ECHILD, "waitpid"));
	result("wait4 with __WCLONE reaps it", pid > 0 && exited_with((pid_t)pid, 7, __WCLONE));
	pid = clone3_child(&(struct clone_args_v2){ .exit_signal = SIGCHLD }, sizeof(a));
	result("wait4 with __WCLONE does not see a SIGCHLD child: ECHILD",
	       pid > 0 && expect_err(waitpid((pid_t)pid, &status, __WCLONE), ECHILD, "waitpid"));
	result("wait4 with __WALL reaps it", pid > 0 && exited_with((pid_t)pid, 7, __WALL));
	result("wait4 with an unknown option: EINVAL",
	       expect_err(waitpid(-1, &status, 0x100), EINVAL, "waitpid"));
}

static void clone3_refusals(void)
{
	static char stack[4096];
	struct clone_args_v2 a = { .exit_signal = SIGCHLD };
	struct {
		const char *name;
		uint64_t flags, exit_signal, stack, stack_size, set_tid_size;
	} bad[] = {
		{ "clone3 with an unknown flag: EINVAL", 1ULL << 40, SIGCHLD, 0, 0, 0 },
		{ "clone3 with a signal in its flags: EINVAL", SIGCHLD, 0, 0, 0, 0 },
		{ "clone3 with CLONE_DETACHED: EINVAL", 0x00400000, SIGCHLD, 0, 0, 0 },
		{ "clone3 with exit_signal 65: EINVAL", 0, 65, 0, 0, 0 },
		{ "clone3 of a thread with an exit_signal: EINVAL", THREAD_FLAGS, SIGCHLD, 0, 0, 0 },
		{ "clone3 with a stack and no size: EINVAL", 0, SIGCHLD, (uintptr_t)stack, 0, 0 },
		{ "clone3 with a stack size and no stack: EINVAL", 0, SIGCHLD, 0, 4096, 0 },
		{ "clone3 with set_tid_size and no set_tid: EINVAL", 0, SIGCHLD, 0, 0, 1 },
		{ "clone3 with CLONE_THREAD without CLONE_SIGHAND: EINVAL", CLONE_VM | CLONE_THREAD,
		  0, 0, 0, 0 },
		{ "clone3 with CLONE_SIGHAND without CLONE_VM: EINVAL", CLONE_SIGHAND, SIGCHLD, 0,
		  0, 0 },
		{ "clone3 with CLONE_SIGHAND and CLONE_CLEAR_SIGHAND: EINVAL",
		  CLONE_VM | CLONE_SIGHAND | 0x100000000ULL, SIGCHLD, 0, 0, 0 },
	};

	result("clone3 with a struct under 64 bytes: EINVAL",
	       expect_err(clone3_(&a, 63), EINVAL, "clone3"));
	result("clone3 with a struct over a page: E2BIG",
	       expect_err(clone3_(&a, 4097), E2BIG, "clone3"));
	result("clone3 with a bad pointer: EFAULT",
	       expect_err(clone3_((void *)8, sizeof(a)), EFAULT, "clone3"));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct clone_args_v2 b = { .flags = bad[i].flags,
					   .exit_signal = bad[i].exit_signal,
					   .stack = bad[i].stack,
					   .stack_size = bad[i].stack_size,
					   .set_tid_size = bad[i].set_tid_size };

		result(bad[i].name, expect_err(clone3_child(&b, sizeof(b)), EINVAL, "clone3"));
	}
}

static volatile long thread_pid, thread_tid;

static void thread_body(void)
{
	thread_pid = syscall(SYS_getpid);
	thread_tid = syscall(SYS_gettid);
}

/*
 * A thread by a raw clone3, as glibc's own wrapper starts one: the child runs fn on its new
 * stack and exits; it touches no thread-local storage (it has none of its own).
 */
static long clone3_thread(struct clone_args_v2 *a, void (*fn)(void))
{
	register void (*r8)(void) __asm__("r8") = fn;
	long ret;

	__asm__ volatile("syscall\n\t"
			 "test %%rax, %%rax\n\t"
			 "jnz 1f\n\t"
			 "xor %%ebp, %%ebp\n\t"
			 "and $-16, %%rsp\n\t"
			 "call *%%r8\n\t"
			 "mov $60, %%eax\n\t"
			 "xor %%edi, %%edi\n\t"
			 "syscall\n\t"
			 "1:"
			 : "=a"(ret)
			 : "a"((long)SYS_clone3), "D"(a), "S"(sizeof(*a)), "r"(r8)
			 : "rcx", "r11", "memory");
	return ret;
}

/* Until the thread's CLONE_CHILD_CLEARTID word is zeroed at its end. */
static void wait_cleared(volatile pid_t *ctid)
{
	pid_t v;

	while ((v = *ctid) != 0)
		syscall(SYS_futex, ctid, FUTEX_WAIT, v, NULL, NULL, 0);
}

static int legacy_thread_body(void *arg)
{
	(void)arg;
	thread_body();
	return 0;
}

static void *pthread_body(void *arg)
{
	*(long *)arg = syscall(SYS_gettid);
	return arg;
}

static void clone3_threads(void)
{
	static char stack[65536] __attribute__((aligned(16)));
	static volatile pid_t ptid, ctid;
	struct clone_args_v2 a = {
		.flags = THREAD_FLAGS,
		.parent_tid = (uintptr_t)&ptid,
		.child_tid = (uintptr_t)&ctid,
		.stack = (uintptr_t)stack,
		.stack_size = sizeof(stack),
	};
	pthread_t t;
	long tid = 0, ret;
	void *res = NULL;

	ctid = -1;
	ret = clone3_thread(&a, thread_body);
	if (ret > 0)
		wait_cleared(&ctid);
	result("clone3 makes a thread", expect(ret > 0, 1, "clone3") &&
						expect(ptid, ret, "parent_tid") &&
						expect(thread_tid, ret, "the thread's gettid") &&
						expect(thread_pid, getpid(), "the thread's getpid"));
	thread_pid = thread_tid = 0;
	ctid = -1;
	ret = clone(legacy_thread_body, stack + sizeof(stack), THREAD_FLAGS, NULL, &ptid, NULL,
		    &ctid);
	if (ret > 0)
		wait_cleared(&ctid);
	result("clone makes a thread too",
	       expect(ret > 0, 1, "clone") && expect(thread_tid, ret, "the thread's gettid") &&
		       expect(thread_pid, getpid(), "the thread's getpid"));
	ret = pthread_create(&t, NULL, pthread_body, &tid);
	result("pthread_create (glibc tries clone3 first)",
	       expect(ret, 0, "pthread_create") && !pthread_join(t, &res) && res == &tid &&
		       expect(tid > 0 && tid != getpid(), 1, "the thread's own tid"));
}

/* ---------------------------------------------------------------- CLONE_FILES */

static const char *thread_path;
static int thread_fd = -1;

static void *open_in_thread(void *arg)
{
	(void)arg;
	thread_fd = open(thread_path, O_RDONLY);
	return NULL;
}

static void *getfl_in_thread(void *arg)
{
	return (void *)(long)fcntl(*(int *)arg, F_GETFL);
}

/* Until the pipe says something (3 s at most): read's answer, or -2 if nothing came. */
static void *read_in_thread(void *arg)
{
	struct pollfd pfd = { .fd = *(int *)arg, .events = POLLIN };
	char c;

	if (poll(&pfd, 1, 3000) <= 0)
		return (void *)-2L;
	return (void *)(long)read(pfd.fd, &c, 1);
}

static long in_thread(void *(*fn)(void *), void *arg)
{
	pthread_t t;
	void *res = (void *)-3L;

	if (pthread_create(&t, NULL, fn, arg) || pthread_join(t, &res))
		return -3;
	return (long)res;
}

/* A poll of 8 descriptors of a table another thread shares: more files held by one call
 * than the task keeps without a list. */
static void files_poll_many(void)
{
	int pp[8][2], q[2], n;
	struct pollfd pf[8];
	void *res = NULL;
	pthread_t t;

	for (int i = 0; i < 8; i++) {
		if (pipe(pp[i]) || (i % 2 == 0 && write(pp[i][1], "x", 1) != 1))
			exit(2);
		pf[i] = (struct pollfd){ .fd = pp[i][0], .events = POLLIN };
	}
	if (pipe(q) || pthread_create(&t, NULL, read_in_thread, &q[0]))
		exit(2);
	n = poll(pf, 8, 0);
	close(q[1]);
	pthread_join(t, &res);
	result("a poll of 8 descriptors shared with a thread", expect(n, 4, "poll"));
	for (int i = 0; i < 8; i++) {
		close(pp[i][0]);
		close(pp[i][1]);
	}
	close(q[0]);
}

static void files_threads(const char *path)
{
	pthread_t t;
	void *res = NULL;
	int p[2], fd;

	thread_path = path;
	in_thread(open_in_thread, NULL);
	result("a descriptor a thread opens is its process's",
	       expect(thread_fd >= 0, 1, "the thread's open") &&
		       expect(fcntl(thread_fd, F_GETFL) != -1, 1, "fcntl in main"));
	close(thread_fd);
	result("a descriptor one thread closes is closed for the others",
	       expect(in_thread(getfl_in_thread, &thread_fd), -1, "fcntl in the thread"));
	fd = dup(0);
	if (pipe(p) || fd < 0)
		exit(2);
	result("a descriptor a thread dups onto is its process's",
	       expect(dup2(p[0], fd), fd, "dup2") &&
		       expect(in_thread(getfl_in_thread, &fd), O_RDONLY, "fcntl in the thread"));
	close(fd);
	pthread_create(&t, NULL, read_in_thread, &p[0]);
	usleep(100000);
	close(p[1]); /* the only write end: the thread's read sees the pipe's end */
	pthread_join(t, &res);
	result("a pipe's write end closed in one thread ends another's read",
	       expect((long)res, 0, "the thread's read"));
	close(p[0]);
	files_poll_many();
}

struct files_child {
	const char *path;
	int victim; /* a descriptor of the parent's the child closes */
};

/* A clone's child: opens a descriptor and closes another; its status is the new one. */
static int files_child(void *arg)
{
	struct files_child *c = arg;
	int fd = open(c->path, O_RDONLY);

	close(c->victim);
	return fd;
}

static void files_clone(const char *path, int flags, const char *name)
{
	static char stack[65536] __attribute__((aligned(16)));
	struct files_child c = { path, dup(1) };
	int status = -1, fd;
	pid_t pid = clone(files_child, stack + sizeof(stack), flags | SIGCHLD, &c);

	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status)) {
		snprintf(why, sizeof(why), "clone: %d (errno %d), status %#x", pid, errno, status);
		result(name, 0);
		return;
	}
	fd = WEXITSTATUS(status);
	if (flags & CLONE_FILES)
		result(name,
		       expect(fd > 2, 1, "the child's open") &&
			       expect(fcntl(fd, F_GETFL) != -1, 1, "its descriptor here") &&
			       expect_err(fcntl(c.victim, F_GETFL), EBADF, "the one it closed"));
	else
		result(name, expect(fd > 2, 1, "the child's open") &&
				     expect_err(fcntl(fd, F_GETFL), EBADF, "its descriptor here") &&
				     expect(fcntl(c.victim, F_GETFL) != -1, 1, "the one it closed"));
	if (flags & CLONE_FILES)
		close(fd);
	else
		close(c.victim);
}

/* ---------------------------------------------------------------- SIGCHLD ignored */

static pid_t child_exiting(int code, int delay_ms)
{
	pid_t pid = fork();

	if (pid == 0) {
		usleep(delay_ms * 1000);
		_exit(code);
	}
	return pid;
}

static volatile sig_atomic_t chld_seen;

static void on_chld(int sig)
{
	(void)sig;
	chld_seen++;
}

static void sigchld_ignored(void)
{
	struct sigaction sa = { .sa_handler = on_chld, .sa_flags = SA_NOCLDWAIT };
	int status;
	pid_t a, b;

	signal(SIGCHLD, SIG_IGN);
	a = child_exiting(1, 0);
	b = child_exiting(2, 200);
	result("SIGCHLD ignored: wait4 waits for the children, then ECHILD",
	       expect(a > 0 && b > 0, 1, "fork") &&
		       expect_err(waitpid(-1, &status, 0), ECHILD, "waitpid(-1)"));
	a = child_exiting(3, 100);
	result("SIGCHLD ignored: wait4 for one child is ECHILD after its end",
	       expect_err(waitpid(a, &status, 0), ECHILD, "waitpid(pid)"));
	a = child_exiting(4, 0);
	usleep(200000);
	result("SIGCHLD ignored: a child that ended is gone already",
	       expect_err(waitpid(-1, &status, WNOHANG), ECHILD, "waitpid(WNOHANG)"));
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, NULL);
	chld_seen = 0;
	a = child_exiting(5, 50);
	result("SA_NOCLDWAIT: SIGCHLD still comes, wait4 is ECHILD",
	       expect_err(waitpid(-1, &status, 0), ECHILD, "waitpid") &&
		       (chld_seen || (usleep(100000), 1)) && expect(chld_seen, 1, "SIGCHLD handled"));
	signal(SIGCHLD, SIG_DFL);
	a = child_exiting(6, 0);
	result("SIGCHLD back to SIG_DFL: a child waits to be reaped",
	       expect(waitpid(-1, &status, 0), a, "waitpid") &&
		       expect(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 6, "its status"));
}

/* ---------------------------------------------------------------- rt_sigtimedwait */

static long ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/* A child that sends sig to its parent after ms milliseconds. */
static pid_t signal_later(int sig, int ms)
{
	pid_t parent = getpid(), pid = fork();

	if (pid == 0) {
		usleep(ms * 1000);
		kill(parent, sig);
		_exit(0);
	}
	return pid;
}

static volatile sig_atomic_t usr2_seen;

static void on_usr2(int sig)
{
	(void)sig;
	usr2_seen = 1;
}

static void *wait_in_thread(void *arg)
{
	sigset_t set;
	struct timespec ts = { 3, 0 };

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	*(long *)arg = syscall(SYS_gettid);
	return (void *)(long)sigtimedwait(&set, NULL, &ts);
}

static void sigtimedwait_checks(void)
{
	struct timespec ts = { 3, 0 }, zero = { 0, 0 }, t0;
	sigset_t set, old, pending;
	siginfo_t si;
	pthread_t t;
	void *res = NULL;
	long tid = 0;
	pid_t pid;
	int status;

	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGCHLD);
	sigprocmask(SIG_BLOCK, &set, &old);
	kill(getpid(), SIGUSR1);
	memset(&si, 0, sizeof(si));
	result("rt_sigtimedwait takes a pending signal with its siginfo",
	       expect(sigtimedwait(&set, &si, &ts), SIGUSR1, "sigtimedwait") &&
		       expect(si.si_signo, SIGUSR1, "si_signo") &&
		       expect(si.si_code, SI_USER, "si_code") &&
		       expect(si.si_pid, getpid(), "si_pid") && !sigpending(&pending) &&
		       expect(sigismember(&pending, SIGUSR1), 0, "still pending"));
	pid = signal_later(SIGUSR1, 100);
	memset(&si, 0, sizeof(si));
	result("rt_sigtimedwait waits for a signal sent meanwhile",
	       expect(sigtimedwait(&set, &si, &ts), SIGUSR1, "sigtimedwait") &&
		       expect(si.si_code, SI_USER, "si_code") && expect(si.si_pid, pid, "si_pid"));
	memset(&si, 0, sizeof(si));
	result("rt_sigtimedwait takes a blocked SIGCHLD",
	       expect(sigtimedwait(&set, &si, &ts), SIGCHLD, "sigtimedwait") &&
		       expect(si.si_code, CLD_EXITED, "si_code") && expect(si.si_pid, pid, "si_pid") &&
		       expect(waitpid(pid, &status, 0), pid, "waitpid"));
	ts = (struct timespec){ 0, 200000000 };
	clock_gettime(CLOCK_MONOTONIC, &t0);
	result("rt_sigtimedwait times out: EAGAIN",
	       expect_err(sigtimedwait(&set, NULL, &ts), EAGAIN, "sigtimedwait") &&
		       expect(ms_since(&t0) >= 190, 1, "waited its time"));
	result("rt_sigtimedwait with a zero timeout polls: EAGAIN",
	       expect_err(sigtimedwait(&set, NULL, &zero), EAGAIN, "sigtimedwait"));
	signal(SIGUSR2, on_usr2);
	pid = signal_later(SIGUSR2, 100);
	ts = (struct timespec){ 3, 0 };
	sigdelset(&set, SIGCHLD); /* the sender's end is not to be taken for it */
	result("rt_sigtimedwait interrupted by a handled signal: EINTR",
	       expect_err(sigtimedwait(&set, NULL, &ts), EINTR, "sigtimedwait") &&
		       expect(usr2_seen, 1, "the handler ran"));
	waitpid(pid, &status, 0);
	sigaddset(&set, SIGCHLD);
	sigtimedwait(&set, NULL, &zero); /* its SIGCHLD */
	signal(SIGUSR2, SIG_DFL);
	pthread_create(&t, NULL, wait_in_thread, &tid);
	usleep(100000);
	kill(getpid(), SIGUSR1);
	pthread_join(t, &res);
	result("rt_sigtimedwait in a thread takes a signal sent to the process",
	       expect((long)res, SIGUSR1, "the thread's sigtimedwait"));
	result("rt_sigtimedwait with a bad set size: EINVAL",
	       expect_err(syscall(SYS_rt_sigtimedwait, &set, NULL, &ts, 4), EINVAL, "sigtimedwait"));
	ts = (struct timespec){ 0, 1000000000 };
	result("rt_sigtimedwait with a bad timeout: EINVAL",
	       expect_err(sigtimedwait(&set, NULL, &ts), EINVAL, "sigtimedwait"));
	result("rt_sigtimedwait with a bad set pointer: EFAULT",
	       expect_err(syscall(SYS_rt_sigtimedwait, 8, NULL, &ts, 8), EFAULT, "sigtimedwait"));
	result("rt_sigtimedwait with a bad timeout pointer: EFAULT",
	       expect_err(syscall(SYS_rt_sigtimedwait, &set, NULL, 8, 8), EFAULT, "sigtimedwait"));
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* ---------------------------------------------------------------- real-time signals */

static volatile int rt_value;

static void on_rt(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	rt_value = si->si_code == SI_QUEUE ? si->si_value.sival_int : -1;
}

/* Instances of sig pending now, taken with sigtimedwait: their values in *values. */
static int take_all(int sig, int *values, int max)
{
	struct timespec zero = { 0, 0 };
	sigset_t set;
	siginfo_t si;
	int n = 0;

	sigemptyset(&set);
	sigaddset(&set, sig);
	while (n < max && sigtimedwait(&set, &si, &zero) == sig)
		values[n++] = si.si_code == SI_QUEUE ? si.si_value.sival_int : -1;
	return n;
}

static void realtime_signals(void)
{
	int rt = SIGRTMIN + 1, values[8], n;
	sigset_t set, old;
	pid_t child;

	sigemptyset(&set);
	sigaddset(&set, rt);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_BLOCK, &set, &old);
	for (int i = 1; i <= 3; i++)
		sigqueue(getpid(), rt, (union sigval){ .sival_int = i * 10 });
	n = take_all(rt, values, 8);
	result("real-time signals queue, taken in the order sent with their values",
	       expect(n, 3, "instances") && expect(values[0], 10, "first value") &&
		       expect(values[1], 20, "second") && expect(values[2], 30, "third"));
	kill(getpid(), rt);
	kill(getpid(), rt);
	result("kill of a real-time signal queues each instance",
	       expect(take_all(rt, values, 8), 2, "instances"));
	kill(getpid(), SIGUSR1);
	kill(getpid(), SIGUSR1);
	result("a standard signal pending is not queued twice",
	       expect(take_all(SIGUSR1, values, 8), 1, "instances"));
	sigprocmask(SIG_SETMASK, &old, NULL);

	struct sigaction sa = { .sa_sigaction = on_rt, .sa_flags = SA_SIGINFO };

	sigemptyset(&sa.sa_mask);
	sigaction(rt, &sa, NULL);
	rt_value = 0;
	sigqueue(getpid(), rt, (union sigval){ .sival_int = 77 });
	result("a handler gets sigqueue's value", expect(rt_value, 77, "si_value"));
	signal(rt, SIG_DFL);

	siginfo_t si = { .si_signo = SIGUSR1, .si_code = SI_USER };

	child = fork();
	if (child == 0) {
		pause();
		_exit(0);
	}
	result("rt_sigqueueinfo posing as kill to another process: EPERM",
	       expect_err(syscall(SYS_rt_sigqueueinfo, child, SIGUSR1, &si), EPERM,
			  "rt_sigqueueinfo"));
	si.si_code = SI_QUEUE;
	si.si_value.sival_int = 5;
	result("rt_tgsigqueueinfo with a bad thread id: EINVAL",
	       expect_err(syscall(SYS_rt_tgsigqueueinfo, child, 0, SIGUSR1, &si), EINVAL,
			  "rt_tgsigqueueinfo"));
	result("rt_sigqueueinfo with a bad siginfo pointer: EFAULT",
	       expect_err(syscall(SYS_rt_sigqueueinfo, child, SIGUSR1, 8), EFAULT, "rt_sigqueueinfo"));
	kill(child, SIGKILL);
	waitpid(child, NULL, 0);
}

int main(int argc, char **argv)
{
	int in;

	/* the thread's exit, not exit_group: the process ends only if no other thread is left */
	if (argc == 2 && !strcmp(argv[1], "--exit-zero"))
		syscall(SYS_exit, 0);
	if (argc != 3) {
		fprintf(stderr, "usage: morecalls DIR OTHER-FS-DIR\n");
		return 2;
	}
	in = make_source(path_in(argv[1], "source", 0));
	close(in);
	in = open(path_in(argv[1], "source", 0), O_RDONLY);
	sendfile_files(argv[1], in);
	sendfile_pipe(in);
	sendfile_errors(argv[1], in);
	copy_range_data(argv[1], in);
	copy_range_errors(argv[1], argv[2], in);
	close(in);
	direct_io(argv[1]);
	fallocate_modes(argv[1]);
	fs_sharing(argv[1]);
	exec_ends_threads(argv[0]);
	clone3_processes();
	clone3_exit_signal();
	clone3_refusals();
	wait_clone_children();
	clone3_threads();
	files_threads(path_in(argv[1], "source", 0));
	files_clone(path_in(argv[1], "source", 0), CLONE_FILES,
		    "clone with CLONE_FILES shares the table with a process");
	files_clone(path_in(argv[1], "source", 0), 0, "clone without CLONE_FILES copies it");
	sigchld_ignored();
	sigtimedwait_checks();
	realtime_signals();
	printf("morecalls: %d failed\n", failures);
	return failures != 0;
}
