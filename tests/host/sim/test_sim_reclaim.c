/*
 * Reclaim against truncation on two virtual CPUs (host_smp_start()), under many seeds.
 *
 * Reclaim takes a page off its LRU list with a reference of its own, looks at it and puts
 * it back; truncation meanwhile takes the page out of the cache and drops the cache's
 * reference. Whichever reference goes last must find the page off every LRU list, or the
 * allocator gets a page that a list still links (Linux 6.1 takes a page off its list in the
 * final folio_put(), __page_cache_release()). Files are rewritten, truncated and unlinked
 * on CPU 0 while CPU 1 drops the page cache in a loop, as `echo 3 > drop_caches` does.
 */
#include <criterion/criterion.h>
#include <cgwb/fs.h>
#include <cgwb/pagemap.h>
#include <cgwb/vmscan.h>
#include <cgwb/sched.h>
#include <cgwb/wait.h>
#include <cgwb/string.h>
#include <cgwb/bug.h>
#include "host.h"
#include "sim.h"

#define NR_SEEDS 150
#define ROUNDS 40
#define FILE_PAGES 8

static const struct sim_config cfg = {
	.mem_mib = 64,
	.disk_mib = 32,
	.disk_bps = 256 * MiB,
	.disk_latency_ns = 20 * NSEC_PER_USEC,
};

static bool rewriter_done;

static void write_file(const char *path, char fill)
{
	static char buf[FILE_PAGES * PAGE_SIZE];
	struct file *f = filp_open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	BUG_ON(IS_ERR(f));
	memset(buf, fill, sizeof(buf));
	BUG_ON(file_write(f, buf, sizeof(buf)) != (ssize_t)sizeof(buf));
	fput(f);
}

static unsigned long drops_started;
static DECLARE_WAIT_QUEUE_HEAD(drop_wq);

/* Until the dropper has begun a new pass: the two overlap, the seed says how. */
static void wait_for_a_drop(void)
{
	unsigned long seen = READ_ONCE(drops_started);

	wait_event(drop_wq, READ_ONCE(drops_started) != seen);
}

/* dd's O_TRUNC rewrite, a shorter file, and every fourth round rm: pages leave the cache. */
static int rewriter(void *unused)
{
	for (int round = 1; round <= ROUNDS; round++) {
		write_file("/mnt/f", (char)round);
		wait_for_a_drop();
		if (round % 2)
			BUG_ON(do_truncate("/mnt/f", PAGE_SIZE + 100));
		if (round % 4 == 0)
			BUG_ON(do_unlink("/mnt/f"));
	}
	WRITE_ONCE(rewriter_done, true);
	return 0;
}

/*
 * Drops while the rewriter runs; sleeps while it waits for the disk, since virtual time
 * moves only when every CPU is idle (and not through host_consume_ns(), whose completions
 * would run here and could spin on a lock the other CPU holds).
 */
static int dropper(void *arg)
{
	struct task_struct *rewriter = arg;

	while (!READ_ONCE(rewriter_done)) {
		WRITE_ONCE(drops_started, drops_started + 1);
		wake_up(&drop_wq);
		drop_pagecache();
		if (READ_ONCE(rewriter->state) != TASK_RUNNING)
			msleep(1);
	}
	return 0;
}

static void truncate_race(u64 seed)
{
	struct task_struct *w, *d;

	sim_boot(&cfg);
	host_smp_start(2, seed);
	w = sim_kthread_on(0, rewriter, NULL, "rewriter");
	d = sim_kthread_on(1, dropper, w, "dropper");
	BUG_ON(kthread_join(d)); /* first: it looks at the rewriter's task until it ends */
	BUG_ON(kthread_join(w));
	drop_pagecache();
	if (page_alloc_bad_pages())
		panic("%lu pages freed while still in use", page_alloc_bad_pages());
	BUG_ON(page_alloc_check());
	sim_shutdown();
}

Test(sim_reclaim, a_page_truncated_while_reclaim_holds_it_leaves_the_lru_once, .timeout = 600)
{
	cr_assert_eq(host_smp_seeds(NR_SEEDS, truncate_race), 0);
}
