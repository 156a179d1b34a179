/*
 * Writing through shared mappings, for cgwb's system tests.
 *
 *   mmapw write FILE MIB [STAT]  map FILE (made MIB long) shared and write every page, then
 *                                msync; with STAT (a memory.stat) print the peak of
 *                                file_dirty + file_writeback seen every MiB; read it back
 *   mmapw fork FILE              a child's stores through shared mappings (anonymous and
 *                                FILE) are seen by the parent; private ones are not
 *   mmapw past FILE              a store to a mapped page past the file's end (SIGBUS)
 *   mmapw touch FILE             map FILE shared, read-only, and read a byte of every page
 *                                in order: how many pages, and the page faults the system
 *                                took meanwhile (/proc/vmstat's pgfault)
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define MIB (1UL << 20)

static long stat_value(FILE *f, const char *key)
{
	char line[128];
	size_t n = strlen(key);

	rewind(f);
	fflush(f);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) && line[n] == ' ')
			return atol(line + n + 1);
	return -1;
}

static long dirty_now(const char *stat)
{
	FILE *f = fopen(stat, "r"); /* made at open: read afresh each time */
	long v;

	if (!f)
		return -1;
	v = stat_value(f, "file_dirty") + stat_value(f, "file_writeback");
	fclose(f);
	return v;
}

static int do_write(const char *path, unsigned long mib, const char *stat)
{
	size_t len = mib * MIB;
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	long peak = 0;
	unsigned char *p, buf[4096];

	if (fd < 0 || ftruncate(fd, (off_t)len))
		return perror(path), 1;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return perror("mmap"), 1;
	for (size_t off = 0; off < len; off += 4096) {
		memset(p + off, (int)((off >> 12) % 251), 4096);
		if (stat && !((off + 4096) % MIB)) {
			long d = dirty_now(stat);

			peak = d > peak ? d : peak;
		}
	}
	if (msync(p, len, MS_SYNC))
		return perror("msync"), 1;
	if (stat)
		printf("peak dirty+writeback KiB %ld\n", peak >> 10);
	munmap(p, len);
	for (size_t off = 0; off < len; off += 4096) {
		if (pread(fd, buf, sizeof(buf), (off_t)off) != sizeof(buf) ||
		    buf[0] != (off >> 12) % 251 || buf[4095] != (off >> 12) % 251)
			return fprintf(stderr, "mmapw: page %zu reads back wrong\n", off >> 12), 1;
	}
	printf("wrote and read back %lu MiB\n", mib);
	return close(fd);
}

static int do_fork(const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644), status;
	volatile int *anon =
		mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	volatile int *priv =
		mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	volatile int *file;
	pid_t pid;

	if (fd < 0 || ftruncate(fd, 4096) || anon == MAP_FAILED || priv == MAP_FAILED)
		return perror("setup"), 1;
	file = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (file == MAP_FAILED)
		return perror("mmap file"), 1;
	*anon = 1;
	*file = 1;
	*priv = 1;
	pid = fork();
	if (pid == 0) {
		*anon = 42;
		*file = 43;
		*priv = 44;
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || status)
		return perror("fork"), 1;
	printf("after the child: shared anonymous %d, shared file %d, private %d\n", *anon, *file,
	       *priv);
	return 0;
}

static int do_past(const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	char *p;

	if (fd < 0 || ftruncate(fd, 8192))
		return perror(path), 1;
	p = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return perror("mmap"), 1;
	p[0] = 1;
	if (ftruncate(fd, 4096))
		return perror("ftruncate"), 1;
	printf("first page still %d\n", p[0]);
	fflush(stdout);
	p[4096] = 1; /* past the end now */
	printf("stored past the end\n");
	return 0;
}

/* /proc/vmstat's pgfault, read into a buffer touched before: no fault of its own */
static long vm_faults(void)
{
	static char buf[8192];
	int fd = open("/proc/vmstat", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	const char *p;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	p = strstr(buf, "\npgfault ");
	return p ? atol(p + 9) : -1;
}

static int do_touch(const char *path)
{
	int fd = open(path, O_RDONLY);
	off_t size = fd < 0 ? -1 : lseek(fd, 0, SEEK_END);
	unsigned long pages = 0, sum = 0;
	long faults;
	const char *p;

	if (size <= 0)
		return perror(path), 1;
	p = mmap(NULL, (size_t)size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return perror("mmap"), 1;
	vm_faults(); /* its buffer and code paged in */
	faults = vm_faults();
	for (off_t off = 0; off < size; off += 4096, pages++)
		sum += (unsigned char)p[off];
	faults = vm_faults() - faults;
	printf("touched %lu pages (sum %lu)\n", pages, sum);
	printf("faults %ld\n", faults);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 4 && !strcmp(argv[1], "write"))
		return do_write(argv[2], strtoul(argv[3], NULL, 0), argc > 4 ? argv[4] : NULL);
	if (argc == 3 && !strcmp(argv[1], "fork"))
		return do_fork(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "past"))
		return do_past(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "touch"))
		return do_touch(argv[2]);
	fprintf(stderr, "usage: mmapw write FILE MIB [STAT] | fork FILE | past FILE | touch "
			"FILE\n");
	return 2;
}
