/*
 * The system call round trip, for make bench: sysbench N makes N getppid() calls (a call
 * that does nothing: Linux's, and cgwb's, return a number) and prints the nanoseconds per
 * call and the loop's seconds as make compare's RESULT line. The same static binary runs on
 * cgwb and on Linux (scripts/bench/syscall).
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 0) : 1000000;
	double t0 = now(), t;

	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	t = now() - t0;
	printf("RESULT getppid_ns=%.1f loop_ms=%.0f calls=%ld\n", t * 1e9 / (double)n, t * 1e3, n);
	return 0;
}
