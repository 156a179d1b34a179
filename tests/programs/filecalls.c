/*
 * The file calls around writeback, for cgwb's system tests:
 *   filecalls FILE   statx (by path, by descriptor, bad flags); sync_file_range (a 1 MiB
 *                    write goes to the disk: /sys/block/vda/stat's written sectors grow);
 *                    fallocate (ext4's unwritten extents), glibc's posix_fallocate;
 *                    fadvise DONTNEED (the clean pages leave the cache: /proc/meminfo's
 *                    Cached falls); descriptors up to RLIMIT_NOFILE, then EMFILE.
 *                    One line per check, "ok" or what went wrong.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIB (1L << 20)

static long meminfo_kb(const char *key)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	long v = -1;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, strlen(key)))
			v = atol(line + strlen(key));
	if (f)
		fclose(f);
	return v;
}

static long written_sectors(void)
{
	FILE *f = fopen("/sys/block/vda/stat", "r");
	long v[7] = { 0 };

	if (!f || fscanf(f, "%ld %ld %ld %ld %ld %ld %ld", &v[0], &v[1], &v[2], &v[3], &v[4], &v[5],
			 &v[6]) != 7)
		v[6] = -1;
	if (f)
		fclose(f);
	return v[6];
}

static void check(const char *what, int ok)
{
	printf("%s: %s\n", what, ok ? "ok" : strerror(errno));
}

static void statx_checks(const char *path, int fd)
{
	struct statx sx;

	check("statx path", !statx(AT_FDCWD, path, 0, STATX_BASIC_STATS, &sx) &&
				    (sx.stx_mask & STATX_BASIC_STATS) == STATX_BASIC_STATS &&
				    sx.stx_size == MIB && S_ISREG(sx.stx_mode) &&
				    sx.stx_blocks >= 2048);
	check("statx fd", !statx(fd, "", AT_EMPTY_PATH, STATX_SIZE, &sx) && sx.stx_size == MIB);
	errno = 0;
	check("statx bad flags", statx(AT_FDCWD, path, 0x80000, STATX_SIZE, &sx) && errno == EINVAL);
}

static void sync_range_checks(int fd, char *buf)
{
	int p[2];
	long before;

	memset(buf, 'r', MIB);
	if (pwrite(fd, buf, MIB, 0) != MIB)
		return check("rewrite", 0);
	before = written_sectors();
	check("sync_file_range", !sync_file_range(fd, 0, 0,
						  SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
							  SYNC_FILE_RANGE_WAIT_AFTER) &&
					 written_sectors() - before >= MIB / 512);
	errno = 0;
	check("sync_file_range bad flags", sync_file_range(fd, 0, 0, 8) && errno == EINVAL);
	errno = 0;
	check("sync_file_range pipe",
	      !pipe(p) && sync_file_range(p[0], 0, 0, SYNC_FILE_RANGE_WRITE) && errno == ESPIPE);
}

static void fallocate_checks(const char *path, int fd)
{
	int ro = open(path, O_RDONLY);
	struct stat st;

	errno = 0;
	check("fallocate", !fallocate(fd, 0, 0, 2 * MIB) && !fstat(fd, &st) &&
				   st.st_size == 2 * MIB && st.st_blocks >= 4096);
	errno = 0;
	check("fallocate read-only", fallocate(ro, 0, 0, 4096) && errno == EBADF);
	errno = posix_fallocate(fd, MIB, MIB); /* the error is returned, not in errno */
	check("posix_fallocate", !errno && !fstat(fd, &st) && st.st_size == 2 * MIB);
	close(ro);
}

static void fadvise_checks(int fd)
{
	long before;

	check("fsync", !fsync(fd));
	before = meminfo_kb("Cached:");
	errno = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	/* the 1 MiB written is cached; fallocate's blocks are not */
	if (!errno && before - meminfo_kb("Cached:") < 900)
		errno = EEXIST; /* "File exists": the pages are still cached */
	check("fadvise DONTNEED", !errno);
}

static void descriptor_checks(const char *path)
{
	struct rlimit rl;
	int first = -1, fd, opened = 0;

	while ((fd = open(path, O_RDONLY)) >= 0) {
		if (first < 0)
			first = fd;
		opened++;
	}
	printf("descriptors: %d opened from %d, then %s\n", opened, first, strerror(errno));
	check("descriptors up to RLIMIT_NOFILE", !getrlimit(RLIMIT_NOFILE, &rl) && errno == EMFILE &&
							 (rlim_t)(first + opened) == rl.rlim_cur);
	for (fd = first; fd < first + opened; fd++)
		close(fd);
}

int main(int argc, char **argv)
{
	char *buf = malloc(MIB);
	int fd;

	if (argc != 2 || !buf) {
		fprintf(stderr, "usage: filecalls FILE\n");
		return 2;
	}
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
	memset(buf, 'w', MIB);
	if (fd < 0 || write(fd, buf, MIB) != MIB || fsync(fd))
		return perror(argv[1]), 1;
	statx_checks(argv[1], fd);
	sync_range_checks(fd, buf);
	fallocate_checks(argv[1], fd);
	fadvise_checks(fd);
	descriptor_checks(argv[1]);
	return 0;
}
