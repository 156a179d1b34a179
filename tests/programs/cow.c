/*
 * fork's copy-on-write, checked against Linux's answers (tests/system/prog_cow.sh; the same
 * checks pass on a Linux host):
 *
 *   cow DIR                 every check (files are made in DIR)
 *   cow wait-byte FD        read a byte from descriptor FD, then end (vfork's execve check)
 *   cow hold MIB N FILE     touch MIB MiB, fork N children that read it all and wait, and
 *                           print FILE's number (a group's memory.current) before the
 *                           forks, with the children alive and after they end:
 *                           "cow: before B with W after A"
 *
 * Each check prints "PASS name" or "FAIL name: why", then "cow: N failed".
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define BUF_SIZE (4 << 20)

static unsigned char *buf;

static void fill(unsigned char *p, size_t len, unsigned char seed)
{
	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)(seed + i * 13 + i / 4096);
}

/* Does p hold fill()'s bytes of seed? */
static int holds(const unsigned char *p, size_t len, unsigned char seed)
{
	for (size_t i = 0; i < len; i++) {
		if (p[i] != (unsigned char)(seed + i * 13 + i / 4096)) {
			snprintf(why, sizeof(why), "byte %zu is %u, expected %u", i, p[i],
				 (unsigned char)(seed + i * 13 + i / 4096));
			return 0;
		}
	}
	return 1;
}

/* The child's status: 0 when its check held. */
static int child_ok(pid_t pid, const char *what)
{
	int status;

	if (waitpid(pid, &status, 0) != pid) {
		snprintf(why, sizeof(why), "waitpid: errno %d", errno);
		return 0;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 1;
	snprintf(why, sizeof(why), "the child's %s did not hold (status %#x)", what, status);
	return 0;
}

/* A child started with a pipe it waits on before running fn; the parent writes a byte. */
static pid_t fork_waiting(int (*fn)(void), int *go)
{
	int p[2];
	pid_t pid;
	char c;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(p[1]);
		_exit(read(p[0], &c, 1) == 1 ? fn() : 2);
	}
	close(p[0]);
	*go = p[1];
	return pid;
}

static void release(int go)
{
	if (write(go, "x", 1) != 1)
		perror("cow: pipe");
	close(go);
}

/* A child's check: p holds the parent's bytes (seed 1), then its own after it stores them. */
static int rewrite_own_copy(unsigned char *p, size_t len, unsigned char seed)
{
	if (!holds(p, len, 1))
		return 1;
	fill(p, len, seed);
	return holds(p, len, seed) ? 0 : 1;
}

static int child_rewrites(void)
{
	return rewrite_own_copy(buf, BUF_SIZE, 2);
}

static int child_sees_old(void)
{
	return holds(buf, BUF_SIZE, 1) ? 0 : 1;
}

static void child_writes(void)
{
	int go;
	pid_t pid;

	fill(buf, BUF_SIZE, 1);
	pid = fork_waiting(child_rewrites, &go);
	release(go);
	int ok = child_ok(pid, "read and rewrite");

	result("a child reads the parent's memory and writes its own copy",
	       ok && holds(buf, BUF_SIZE, 1));
}

static void parent_writes(void)
{
	int go;
	pid_t pid;

	fill(buf, BUF_SIZE, 1);
	pid = fork_waiting(child_sees_old, &go);
	fill(buf, BUF_SIZE, 3);
	release(go);
	result("the parent's stores after fork stay out of the child",
	       child_ok(pid, "read of the old bytes") && holds(buf, BUF_SIZE, 3));
}

static void mprotect_keeps_copy(void)
{
	int go;
	pid_t pid;

	fill(buf, BUF_SIZE, 1);
	pid = fork_waiting(child_sees_old, &go);
	int ok = expect(mprotect(buf, BUF_SIZE, PROT_READ), 0, "mprotect read-only") &&
		 expect(mprotect(buf, BUF_SIZE, PROT_READ | PROT_WRITE), 0, "mprotect writable");

	if (ok)
		fill(buf, BUF_SIZE, 4);
	release(go);
	ok = ok && child_ok(pid, "read of the old bytes");
	result("mprotect back to writable after fork still copies on write", ok);
}

static int src_fd = -1;

/* read(2) into memory shared with the parent: the kernel's store copies the page too */
static int child_reads_file(void)
{
	if (pread(src_fd, buf + 100, 8192, 0) != 8192)
		return 1;
	if (!holds(buf + 100, 8192, 7))
		return 1;
	return 0;
}

static void kernel_store(const char *dir)
{
	char path[512];
	unsigned char data[8192];
	int go;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/cow-src", dir);
	src_fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	fill(data, sizeof(data), 7);
	if (!expect(src_fd >= 0 && write(src_fd, data, sizeof(data)) == sizeof(data), 1,
		    "the source file")) {
		result("read(2) into memory shared since fork copies it", 0);
		return;
	}
	fill(buf, BUF_SIZE, 1);
	pid = fork_waiting(child_reads_file, &go);
	release(go);
	int ok = child_ok(pid, "read(2) into its memory");

	result("read(2) into memory shared since fork copies it", ok && holds(buf, BUF_SIZE, 1));
	close(src_fd);
}

/* clone(CLONE_CHILD_SETTID): the tid goes to the child's memory, not the parent's */
static void child_settid(void)
{
	static volatile pid_t ctid;
	long pid;

	ctid = 0;
	pid = syscall(SYS_clone, CLONE_CHILD_SETTID | SIGCHLD, 0, NULL, &ctid, 0);
	if (pid == 0)
		_exit(ctid == (pid_t)syscall(SYS_gettid) ? 0 : 1);
	int ok = expect(pid > 0, 1, "clone") && child_ok((pid_t)pid, "tid word");

	if (ok && ctid != 0) {
		snprintf(why, sizeof(why), "the parent's word holds %d", (int)ctid);
		ok = 0;
	}
	result("CLONE_CHILD_SETTID writes the child's copy only", ok);
}

/* A private file mapping's pages copied on write in the child and in the parent. */
static unsigned char *map;
#define MAP_LEN 16384

static int child_map_stores(void)
{
	return rewrite_own_copy(map, MAP_LEN, 5);
}

static int child_map_old(void)
{
	return holds(map, MAP_LEN, 1) ? 0 : 1;
}

static void private_file_mapping(const char *dir)
{
	char path[512];
	unsigned char data[MAP_LEN];
	int fd, go, ok;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/cow-private", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	fill(data, sizeof(data), 1);
	map = fd < 0 || write(fd, data, sizeof(data)) != sizeof(data) ?
		      MAP_FAILED :
		      mmap(NULL, MAP_LEN, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (!expect(map != MAP_FAILED, 1, "the private mapping")) {
		result("a private file mapping is copied on write after fork", 0);
		return;
	}
	map[4096] = map[4096]; /* one page the parent's own before the fork, the rest read */
	ok = holds(map, MAP_LEN, 1);
	pid = fork_waiting(child_map_stores, &go);
	release(go);
	ok = ok && child_ok(pid, "stores") && holds(map, MAP_LEN, 1);
	pid = fork_waiting(child_map_old, &go);
	fill(map, MAP_LEN, 6);
	release(go);
	ok = ok && child_ok(pid, "read of the old bytes") && holds(map, MAP_LEN, 6);
	ok = ok && expect(pread(fd, data, sizeof(data), 0), sizeof(data), "pread") &&
	     holds(data, sizeof(data), 1);
	result("a private file mapping is copied on write after fork", ok);
	munmap(map, MAP_LEN);
	close(fd);
}

/*
 * Another thread of the parent storing all through the fork: once fork has returned, its
 * stores land in the parent's copy only (on another CPU, only if fork took its writable
 * translation away).
 */
static volatile int storing;
static volatile unsigned long *counter;

static void *store_loop(void *arg)
{
	(void)arg;
	while (storing)
		(*counter)++;
	return NULL;
}

static int child_counter_still(void)
{
	unsigned long first = *counter;

	for (int i = 0; i < 20; i++) {
		usleep(5000);
		if (*counter != first)
			return 1;
	}
	return 0;
}

static void thread_stores_during_fork(void)
{
	pthread_t t;
	int go, ok = 1;

	counter = (volatile unsigned long *)(buf + 8192);
	storing = 1;
	if (!expect(pthread_create(&t, NULL, store_loop, NULL), 0, "pthread_create")) {
		result("a thread's stores during fork stay out of the child", 0);
		return;
	}
	for (int round = 0; ok && round < 5; round++) {
		usleep(2000);
		pid_t pid = fork_waiting(child_counter_still, &go);

		release(go);
		ok = child_ok(pid, "counter stood still");
	}
	storing = 0;
	pthread_join(t, NULL);
	result("a thread's stores during fork stay out of the child", ok);
}

/*
 * read(2) into a clean page of a shared file mapping: the kernel's store dirties it as the
 * program's would (the first store's fault), so msync writes it and it outlives the cache.
 */
static void shared_mapping_kernel_store(const char *dir)
{
	char path[512];
	unsigned char data[4096];
	unsigned char *shared;
	int fd, src, ok;

	snprintf(path, sizeof(path), "%s/cow-shared", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	snprintf(path, sizeof(path), "%s/cow-shared-src", dir);
	src = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	fill(data, sizeof(data), 1);
	ok = expect(fd >= 0 && src >= 0 && write(fd, data, sizeof(data)) == sizeof(data), 1,
		    "the files") &&
	     expect(fsync(fd), 0, "fsync");
	fill(data, sizeof(data), 9);
	ok = ok && expect(write(src, data, sizeof(data)), sizeof(data), "the source");
	shared = ok ? mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
	ok = ok && expect(shared != MAP_FAILED, 1, "mmap") && holds(shared, 4096, 1);
	ok = ok && expect(pread(src, shared, 4096, 0), 4096, "pread into the mapping") &&
	     expect(msync(shared, 4096, MS_SYNC), 0, "msync");
	if (shared != MAP_FAILED)
		munmap(shared, 4096);
	ok = ok && expect(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0, "fadvise") &&
	     expect(pread(fd, data, sizeof(data), 0), sizeof(data), "pread") &&
	     holds(data, sizeof(data), 9);
	result("read(2) into a clean shared mapping dirties its page", ok);
	close(fd);
	close(src);
}

/* The kernel's stores into a program obey its protection: EFAULT, as Linux's. */
static void read_into_read_only(const char *dir)
{
	unsigned char *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/cow-src", dir); /* kernel_store()'s */
	fd = open(path, O_RDONLY);
	int ok = expect(ro != MAP_FAILED && fd >= 0, 1, "the mapping and the file") &&
		 expect_err(read(fd, ro, 16), EFAULT, "read into PROT_READ") &&
		 expect(ro[0], 0, "the page's first byte");

	result("read(2) into a read-only mapping: EFAULT", ok);
	if (ro != MAP_FAILED)
		munmap(ro, 4096);
	if (fd >= 0)
		close(fd);
}

/* vfork: the child runs on the parent's memory while the parent sleeps until its end. */
static void vfork_shares(void)
{
	static volatile int word;
	pid_t pid;

	word = 0;
	pid = vfork();
	if (pid == 0) {
		usleep(50000);
		word = 42;
		_exit(0);
	}
	int ok = expect(pid > 0, 1, "vfork") && expect(word, 42, "the word the child stored") &&
		 child_ok(pid, "end");

	result("vfork: the parent sleeps until the child ends and sees its stores", ok);
}

static volatile sig_atomic_t usr1;

static void on_usr1(int sig)
{
	(void)sig;
	usr1++;
}

/* A signal the parent handles, sent while it waits: it still waits for the child's end. */
static void vfork_handled_signal(void)
{
	static volatile int word;
	pid_t pid;

	signal(SIGUSR1, on_usr1);
	word = 0;
	usr1 = 0;
	pid = vfork();
	if (pid == 0) {
		kill(getppid(), SIGUSR1);
		usleep(50000);
		word = 42;
		_exit(0);
	}
	int ok = expect(pid > 0, 1, "vfork") && expect(word, 42, "the word the child stored") &&
		 child_ok(pid, "end") && expect(usr1, 1, "handler runs");

	signal(SIGUSR1, SIG_DFL);
	result("vfork: a handled signal does not end the parent's wait", ok);
}

static const char *self;
extern char **environ;

/* The child's execve lets the parent go before the new program ends: it waits for it. */
static void vfork_exec(void)
{
	int p[2];
	char fd[16];
	pid_t pid;

	if (!expect(pipe(p), 0, "pipe")) {
		result("vfork: the child's execve lets the parent go", 0);
		return;
	}
	snprintf(fd, sizeof(fd), "%d", p[0]);
	alarm(20); /* a parent left asleep dies of it: a failure, not a hang */
	pid = vfork();
	if (pid == 0) {
		execl(self, self, "wait-byte", fd, (char *)NULL);
		_exit(127);
	}
	int ok = expect(write(p[1], "x", 1), 1, "the byte") && child_ok(pid, "new program");

	alarm(0);
	close(p[0]);
	close(p[1]);
	result("vfork: the child's execve lets the parent go", ok);
}

/* glibc's posix_spawn reports a failed execve through the memory vfork shares. */
static void spawn_missing(void)
{
	char *argv[] = { "missing", NULL };
	pid_t pid;
	int err = posix_spawn(&pid, "/nonexistent/missing", NULL, NULL, argv, environ);

	snprintf(why, sizeof(why), "posix_spawn returned %d, expected ENOENT (%d)", err, ENOENT);
	if (!err)
		waitpid(pid, NULL, 0);
	result("posix_spawn of a missing file: ENOENT", err == ENOENT);
}

static long read_number(const char *path)
{
	char text[64] = "";
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, text, sizeof(text) - 1);

	if (fd >= 0)
		close(fd);
	return n > 0 ? atol(text) : -1;
}

static int hold(long mib, int children, const char *file)
{
	size_t len = (size_t)mib << 20;
	unsigned char *mem = malloc(len);
	pid_t pids[64];
	int p[2], ready[2];
	long before, with, after;
	char c;

	if (!mem || children > 64 || pipe(p) || pipe(ready))
		return 2;
	memset(mem, 0x5a, len);
	before = read_number(file);
	for (int i = 0; i < children; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			unsigned long sum = 0;

			for (size_t j = 0; j < len; j += 4096)
				sum += mem[j];
			close(p[1]);
			if (write(ready[1], "r", 1) != 1 || read(p[0], &c, 1) < 0)
				_exit(2);
			_exit(sum == (len / 4096) * 0x5a ? 0 : 1);
		}
	}
	for (int i = 0; i < children; i++) {
		if (read(ready[0], &c, 1) != 1)
			return 2;
	}
	with = read_number(file);
	close(p[1]);
	int bad = 0;

	for (int i = 0; i < children; i++) {
		int status;

		if (waitpid(pids[i], &status, 0) != pids[i] || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			bad++;
	}
	after = read_number(file);
	printf("cow: before %ld with %ld after %ld\n", before, with, after);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	char c;

	if (argc == 3 && !strcmp(argv[1], "wait-byte"))
		return read(atoi(argv[2]), &c, 1) == 1 ? 0 : 1;
	if (argc == 5 && !strcmp(argv[1], "hold"))
		return hold(atol(argv[2]), atoi(argv[3]), argv[4]);
	if (argc != 2) {
		fprintf(stderr, "usage: cow DIR | cow hold MIB N FILE\n");
		return 2;
	}
	buf = mmap(NULL, BUF_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return 2;
	child_writes();
	parent_writes();
	mprotect_keeps_copy();
	kernel_store(argv[1]);
	child_settid();
	private_file_mapping(argv[1]);
	thread_stores_during_fork();
	shared_mapping_kernel_store(argv[1]);
	read_into_read_only(argv[1]);
	self = argv[0];
	vfork_shares();
	vfork_handled_signal();
	vfork_exec();
	spawn_missing();
	printf("cow: %d failed\n", failures);
	return failures != 0;
}
