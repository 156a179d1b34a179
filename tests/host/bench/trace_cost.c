/*
 * The cost of the trace call sites on the buffered write path (make bench, scripts/bench/trace):
 * the kernel's own write path (VFS, page cache, ext2, dirty accounting) on the host platform,
 * optimized and without sanitizers, timed by the CPU time the process used.
 *
 * Each round creates a file on ext2, writes it in 64 KiB writes (the timed part: the pages are
 * allocated, copied into and dirtied, blocks allocated, balance_dirty_pages consulted), then
 * unlinks it untimed. The file stays below the freerun limit, so no writer ever pauses. Rounds
 * alternate between the modes asked, so that a busy machine slows them alike; the best round of
 * each mode is the figure (the least disturbed), the median beside it.
 *
 *	trace-cost [-r ROUNDS] [-m MiB] MODE...    MODE: off (every event disabled), on (all on)
 *
 * Built twice: as is, and with -DCGWB_NO_TRACE (the call sites compiled out: "off" is then the
 * reference the off-cost is measured against).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cgwb/fs.h>
#include <cgwb/ext2.h>
#include <cgwb/cgroup.h>
#include <cgwb/writeback.h>
#include <cgwb/trace/writeback.h>
#include <cgwb/sched.h>
#include <cgwb/errno.h>
#include "host.h"
#include "sim.h"

#define MAX_ROUNDS 64
#define CHUNK (64 * 1024)

struct round {
	size_t bytes;
	double secs; /* of the writes, or < 0 on an error */
};

/* CPU time: the machine is shared, and another process's turn is not the write path's cost. */
static double now_secs(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int write_round(void *arg)
{
	static char buf[CHUNK];
	struct round *r = arg;
	struct file *f = filp_open("/mnt/bench", O_WRONLY | O_CREAT | O_TRUNC, 0644);
	double start;

	if (IS_ERR(f))
		return (int)PTR_ERR(f);
	memset(buf, 0x5a, sizeof(buf));
	start = now_secs();
	for (size_t done = 0; done < r->bytes; done += CHUNK) {
		if (file_write(f, buf, CHUNK) != CHUNK) {
			fput(f);
			return -EIO;
		}
	}
	r->secs = now_secs() - start;
	fput(f);
	return do_unlink("/mnt/bench");
}

static void set_all_events(bool on)
{
	struct trace_event *ev;

	for_each_system_event(ev, &writeback_trace_system)
		ev->enabled = on;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static int boot(char *dir, size_t dir_len)
{
	host_platform_init((size_t)1024 << 20);
	host_set_time_limit(3600ULL * NSEC_PER_SEC);
	storage_init();
	vfs_init();
	if (cgroup_fs_init() || ext2_init())
		return -1;
	return sim_scratch_ext2(dir, dir_len, 1024, NULL, NULL);
}

int main(int argc, char **argv)
{
	static double secs[8][MAX_ROUNDS];
	unsigned int rounds = 7, nr_modes;
	size_t mib = 64;
	char dir[64];
	int opt;

	while ((opt = getopt(argc, argv, "r:m:")) != -1) {
		if (opt == 'r')
			rounds = (unsigned int)atoi(optarg);
		else if (opt == 'm')
			mib = (size_t)atol(optarg);
		else
			return 2;
	}
	nr_modes = (unsigned int)(argc - optind);
	if (!nr_modes || nr_modes > 8 || !rounds || rounds > MAX_ROUNDS || !mib || mib > 128) {
		fprintf(stderr, "usage: trace-cost [-r ROUNDS<=64] [-m MiB<=128] off|on...\n");
		return 2;
	}
	if (boot(dir, sizeof(dir))) {
		fprintf(stderr, "trace-cost: no ext2 on the host platform\n");
		return 1;
	}
	for (unsigned int r = 0; r < rounds; r++) {
		for (unsigned int m = 0; m < nr_modes; m++) {
			struct round rd = { .bytes = mib << 20, .secs = -1 };
			struct task_struct *t;

			set_all_events(!strcmp(argv[optind + m], "on"));
			trace_ring_reset(&trace_global);
			t = kthread_run(write_round, &rd, "bench");
			if (!t || kthread_join(t) || rd.secs <= 0) {
				fprintf(stderr, "trace-cost: a round failed\n");
				return 1;
			}
			/* the flusher and friends catch up outside the timed part */
			host_run_until_idle();
			secs[m][r] = rd.secs;
		}
	}
	for (unsigned int m = 0; m < nr_modes; m++) {
		qsort(secs[m], rounds, sizeof(double), cmp_double);
		printf("%s best %.1f median %.1f MB/s\n", argv[optind + m],
		       (double)(mib << 20) / secs[m][0] / 1e6,
		       (double)(mib << 20) / secs[m][rounds / 2] / 1e6);
	}
	sim_scratch_remove(dir);
	return 0;
}
