/*
 * io.max in virtual time: writers in io cgroups keep
 * a few bios of 4 KiB to 1 MiB in flight on an in-memory disk that completes at once, for
 * 10 s, through the real submit_bio, throttler, timers and issuing work. Every completion
 * is recorded, which on this disk is the instant the bio left the throttler.
 *
 * Checked: in any window of t >= 1 s a limited group moves at most limit x (t + 0.1 s) plus
 * one bio, its 10 s average is within 5 % of the limit, a child limited above its parent
 * runs at the parent's rate, and an unlimited sibling never waits.
 */
#include <criterion/criterion.h>
#include <cgwb/blkdev.h>
#include <cgwb/blk-cgroup.h>
#include <cgwb/cgroup.h>
#include <cgwb/sched.h>
#include <cgwb/wait.h>
#include <cgwb/irqflags.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <stdlib.h>
#include "host.h"
#include "filedisk.h"
#include "../../../block/blk-cgroup.h"
#include "../../../cg/io/io.h"
#include "../../../cg/cgroup/cgroup-internal.h"

#define MiB (1024ULL * 1024)
#define DISK_BYTES (16 * MiB)
#define RUN_NS (10 * NSEC_PER_SEC)
#define MAX_RECORDS 20000

struct writer {
	struct cgroup *cg;
	enum req_op op;
	unsigned int depth;       /* bios kept in flight */
	unsigned int fixed_pages; /* 0: random sizes of 1 to 256 pages */
	u64 cpu_ns_per_bio;       /* what issuing one bio costs the writer */
	unsigned int seed;
	/* state */
	struct page *pages;
	unsigned int inflight;
	wait_queue_head_t wq;
	sector_t next_sector;
	/* results */
	u64 t_ns[MAX_RECORDS];
	unsigned int bytes[MAX_RECORDS];
	unsigned int nr;
	unsigned int max_bytes;
	u64 max_latency_ns;
	u64 total_bytes;
};

static struct gendisk *disk;
static void *disk_mem;
static struct writer writers[2];
static unsigned int nr_writers;

static void setup(void)
{
	host_platform_init(128 << 20);
	disk_mem = calloc(1, DISK_BYTES);
	disk = filedisk_add_mem("vda", disk_mem, DISK_BYTES, false, NULL);
	cr_assert_not_null(disk);
	cr_assert_eq(cgroup_subtree_control_write(&cgroup_root, "+io"), 0);
}

static void teardown(void)
{
	host_platform_exit();
	free(disk_mem);
}

TestSuite(throtl_sim, .init = setup, .fini = teardown, .timeout = 60);

static struct cgroup *mkgroup(struct cgroup *parent, const char *name, const char *io_max)
{
	struct cgroup *cg;

	cr_assert_eq(cgroup_mkdir(parent, name, &cg), 0);
	if (io_max) {
		struct blkcg *blkcg = css_to_blkcg(cg->subsys[io_cgrp_id]);
		cr_assert_eq(blkcg_io_max_store(io_max, strlen(io_max), blkcg), 0, "%s", io_max);
	}
	return cg;
}

static void writer_end_io(struct bio *bio)
{
	struct writer *w = bio->bi_private;
	u64 now = ktime_get_ns();

	cr_assert_eq(bio->bi_status, 0);
	if (w->nr < MAX_RECORDS) {
		w->t_ns[w->nr] = now;
		w->bytes[w->nr++] = bio->bi_size;
	}
	w->total_bytes += bio->bi_size;
	w->max_bytes = max(w->max_bytes, bio->bi_size);
	w->max_latency_ns = max(w->max_latency_ns, now - bio->bi_start_ns);
	w->inflight--;
	wake_up(&w->wq);
	bio_put(bio);
}

static void writer_submit_one(struct writer *w)
{
	unsigned int nr = w->fixed_pages;
	struct bio *bio;
	unsigned long flags;

	if (!nr) {
		w->seed = w->seed * 1103515245 + 12345;
		nr = 1 + (w->seed >> 8) % 256;
	}
	bio = bio_alloc(disk->part0, (unsigned short)nr, w->op, GFP_KERNEL);
	cr_assert_not_null(bio);
	for (unsigned int i = 0; i < nr; i++)
		cr_assert_eq(bio_add_page(bio, w->pages + i, PAGE_SIZE, 0), PAGE_SIZE);
	if (w->next_sector + (nr << 3) > DISK_BYTES >> SECTOR_SHIFT)
		w->next_sector = 0;
	bio->bi_sector = w->next_sector;
	w->next_sector += nr << 3;
	bio->bi_end_io = writer_end_io;
	bio->bi_private = w;
	local_irq_save(flags);
	w->inflight++;
	local_irq_restore(flags);
	submit_bio(bio);
}

static int writer_fn(void *arg)
{
	struct writer *w = arg;

	while (ktime_get_ns() < RUN_NS) {
		wait_event(w->wq, w->inflight < w->depth);
		if (ktime_get_ns() >= RUN_NS)
			break;
		writer_submit_one(w);
		if (w->cpu_ns_per_bio)
			host_consume_ns(w->cpu_ns_per_bio);
	}
	wait_event(w->wq, w->inflight == 0);
	return 0;
}

static struct writer *writer_start(struct cgroup *cg, enum req_op op, unsigned int fixed_pages,
				   u64 cpu_ns, struct task_struct **task)
{
	struct writer *w = &writers[nr_writers++];

	memset(w, 0, sizeof(*w));
	w->cg = cg;
	w->op = op;
	w->depth = 4;
	w->fixed_pages = fixed_pages;
	w->cpu_ns_per_bio = cpu_ns;
	w->seed = 12345;
	init_waitqueue_head(&w->wq);
	w->pages = alloc_pages(GFP_KERNEL, 8);
	cr_assert_not_null(w->pages);
	*task = kthread_create(writer_fn, w, "writer");
	cr_assert_not_null(*task);
	cgroup_attach_task(cg, *task);
	wake_up_process(*task);
	return w;
}

static void writer_finish(struct writer *w, struct task_struct *task)
{
	cr_assert_eq(kthread_join(task), 0);
	__free_pages(w->pages, 8);
}

/* Amount moved in the first run_ns (bytes, or IOs if ios). */
static u64 moved_in_run(const struct writer *w, bool ios)
{
	u64 sum = 0;

	for (unsigned int i = 0; i < w->nr; i++)
		if (w->t_ns[i] <= RUN_NS)
			sum += ios ? 1 : w->bytes[i];
	return sum;
}

/*
 * Every window between two completions, counted as at least 1 s long, holds at most
 * limit x (length + 0.1 s) plus one bio (bytes, or IOs if ios).
 */
static void check_windows(const struct writer *w, u64 limit, bool ios)
{
	u64 *prefix = calloc(w->nr + 1, sizeof(u64));
	u64 item = ios ? 1 : w->max_bytes;

	for (unsigned int i = 0; i < w->nr; i++)
		prefix[i + 1] = prefix[i] + (ios ? 1 : w->bytes[i]);
	for (unsigned int i = 0; i < w->nr; i++) {
		for (unsigned int j = i; j < w->nr; j++) {
			u64 len = max(w->t_ns[j] - w->t_ns[i], (u64)NSEC_PER_SEC);
			double allowed =
				(double)limit * (double)(len + NSEC_PER_SEC / 10) / 1e9 + item;
			u64 moved = prefix[j + 1] - prefix[i];
			cr_assert_leq(moved, allowed, "window %.3f s..%.3f s: %llu > %.0f",
				      w->t_ns[i] / 1e9, w->t_ns[j] / 1e9, moved, allowed);
		}
	}
	free(prefix);
}

static void check_average(const struct writer *w, u64 limit, bool ios)
{
	double avg = (double)moved_in_run(w, ios) / (RUN_NS / 1e9);

	cr_assert(avg >= 0.95 * limit && avg <= 1.05 * limit, "average %.0f/s, limit %llu/s", avg,
		  limit);
}

Test(throtl_sim, wbps_holds_and_an_unlimited_sibling_never_waits)
{
	struct cgroup *a = mkgroup(&cgroup_root, "a", "254:0 wbps=4194304");
	struct cgroup *b = mkgroup(&cgroup_root, "b", NULL);
	struct task_struct *ta, *tb;
	struct writer *wa = writer_start(a, REQ_OP_WRITE, 0, 0, &ta);
	struct writer *wb = writer_start(b, REQ_OP_WRITE, 16, NSEC_PER_MSEC, &tb);

	host_run_for(RUN_NS);
	writer_finish(wa, ta);
	writer_finish(wb, tb);
	check_windows(wa, 4 * MiB, false);
	check_average(wa, 4 * MiB, false);
	cr_assert_eq(wb->max_latency_ns, 0, "b waited %llu ns", wb->max_latency_ns);
	cr_assert_gt(moved_in_run(wb, false), 100 * 4 * MiB, "b is far faster than a's limit");
}

Test(throtl_sim, child_limited_above_its_parent_runs_at_the_parent_rate)
{
	struct cgroup *p = mkgroup(&cgroup_root, "p", "254:0 wbps=2097152");
	struct task_struct *t;
	struct writer *w;

	cr_assert_eq(cgroup_subtree_control_write(p, "+io"), 0);
	w = writer_start(mkgroup(p, "c", "254:0 wbps=8388608"), REQ_OP_WRITE, 0, 0, &t);
	host_run_for(RUN_NS);
	writer_finish(w, t);
	check_windows(w, 2 * MiB, false);
	check_average(w, 2 * MiB, false);
}

Test(throtl_sim, rbps_holds_for_reads)
{
	struct task_struct *t;
	struct writer *w = writer_start(mkgroup(&cgroup_root, "r", "254:0 rbps=3000000 wbps=1000"),
					REQ_OP_READ, 0, 0, &t);

	host_run_for(RUN_NS);
	writer_finish(w, t);
	check_windows(w, 3000000, false);
	check_average(w, 3000000, false);
}

Test(throtl_sim, wiops_holds)
{
	struct task_struct *t;
	struct writer *w =
		writer_start(mkgroup(&cgroup_root, "i", "254:0 wiops=150"), REQ_OP_WRITE, 0, 0, &t);

	host_run_for(RUN_NS);
	writer_finish(w, t);
	check_windows(w, 150, true);
	check_average(w, 150, true);
}

Test(throtl_sim, riops_of_a_child_limited_above_its_parent)
{
	struct cgroup *p = mkgroup(&cgroup_root, "p", "254:0 riops=80");
	struct task_struct *t;
	struct writer *w;

	cr_assert_eq(cgroup_subtree_control_write(p, "+io"), 0);
	w = writer_start(mkgroup(p, "c", "254:0 riops=500"), REQ_OP_READ, 1, 0, &t);
	host_run_for(RUN_NS);
	writer_finish(w, t);
	check_windows(w, 80, true);
	check_average(w, 80, true);
}
