/*
 * A static C program for cgwb's system tests: glibc's start-up, stdio, the heap (brk and
 * mmap), files (write, fsync, read back), arguments and its exit status.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static int file_round_trip(const char *path)
{
	char buf[64] = { 0 };
	struct stat st;
	int fd = open(path, O_CREAT | O_TRUNC | O_RDWR, 0644);

	if (fd < 0 || write(fd, "round trip\n", 11) != 11 || fsync(fd) || fstat(fd, &st))
		return perror(path), 1;
	if (pread(fd, buf, sizeof(buf) - 1, 0) != 11 || strcmp(buf, "round trip\n"))
		return fprintf(stderr, "read back %s\n", buf), 1;
	printf("file %s size %lld\n", path, (long long)st.st_size);
	return close(fd);
}

int main(int argc, char **argv)
{
	char *small = malloc(100), *big = malloc(8 << 20);

	printf("hello from %s with %d args:", argv[0], argc - 1);
	for (int i = 1; i < argc; i++)
		printf(" %s", argv[i]);
	printf("\n");
	if (!small || !big)
		return 2;
	memset(big, 0x5a, 8 << 20);
	printf("heap ok %d\n", big[(8 << 20) - 1] == 0x5a);
	free(big);
	if (argc > 1 && file_round_trip(argv[1]))
		return 3;
	return argc > 2 ? atoi(argv[2]) : 0;
}
