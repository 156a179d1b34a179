/*
 * io.cost in virtual time: writers in io cgroups keep bios in flight on a modelled disk
 * (a set bandwidth, requests served one after the other) through the real submit_bio,
 * io.cost's budgets, timers and periods, and the device's completions.
 *
 * Checked: the shares of a saturated disk follow the weights, also nested (hweight); an
 * idle or light group's share goes to the others (donation, work conservation); vrate
 * converges to the device's real capacity when the model is wrong; IO that must not wait
 * (metadata) is charged as debt and paid back, so the group's share still holds; a debtor
 * lends its share until it has paid, a killed task's IO goes as debt, and IO in flight
 * keeps its group active, as Linux 6.1's.
 */
#include <criterion/criterion.h>
#include <cgwb/blkdev.h>
#include <cgwb/blk-cgroup.h>
#include <cgwb/blk-iocost.h>
#include <cgwb/cgroup.h>
#include <cgwb/sched.h>
#include <cgwb/wait.h>
#include <cgwb/irqflags.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <stdlib.h>
#include <stdio.h>
#include "host.h"
#include "filedisk.h"
#include "../../../cg/io/io.h"
#include "../../../cg/cgroup/cgroup-internal.h"
#include "../../../block/blk-cgroup.h"
#include "../../../block/blk-iocost.h"

#define MiB (1024ULL * 1024)
#define DISK_BYTES (64 * MiB)
#define DISK_BPS (64 * MiB)
#define MAX_WRITERS 4
/* latency targets that the disk meets unless io.cost lets too much through */
#define QOS_LAT "rpct=90 rlat=20000 wpct=90 wlat=20000"

struct writer {
	struct cgroup *cg;
	unsigned int depth;      /* bios kept in flight */
	unsigned int pages;      /* per bio */
	u64 think_ns;            /* pause after each bio: a light writer */
	unsigned int meta_every; /* every Nth bio is REQ_META (0: none) */
	u64 end_ns;
	/* state */
	struct page *mem;
	unsigned int inflight, nr;
	wait_queue_head_t wq;
	sector_t base, next;
	struct task_struct *task;
	/* results: bytes completed so far, and at the mark */
	u64 bytes, bytes_at_mark;
};

static struct gendisk *disk;
static void *disk_mem;
static struct writer writers[MAX_WRITERS];
static unsigned int nr_writers;

static void setup_disk(u64 bps)
{
	struct filedisk_model model = { .bandwidth_bps = bps };

	host_platform_init(128 << 20);
	disk_mem = calloc(1, DISK_BYTES);
	disk = filedisk_add_mem("vda", disk_mem, DISK_BYTES, false, &model);
	cr_assert_not_null(disk);
	cr_assert_eq(cgroup_subtree_control_write(&cgroup_root, "+io"), 0);
	nr_writers = 0;
}

static void setup(void)
{
	setup_disk(DISK_BPS);
}

static void teardown(void)
{
	host_platform_exit();
	free(disk_mem);
}

TestSuite(iocost_sim, .init = setup, .fini = teardown, .timeout = 120);

static void conf(int (*fn)(const char *, size_t, void *), void *private, const char *line)
{
	cr_assert_eq(fn(line, strlen(line), private), 0, "%s", line);
}

static struct blkcg *blkcg_of(struct cgroup *cg)
{
	return css_to_blkcg(cg->subsys[io_cgrp_id]);
}

static struct cgroup *mkgroup(struct cgroup *parent, const char *name, unsigned int weight)
{
	struct cgroup *cg;
	char line[32];

	cr_assert_eq(cgroup_mkdir(parent, name, &cg), 0);
	snprintf(line, sizeof(line), "default %u", weight);
	conf(blkcg_io_weight_store, blkcg_of(cg), line);
	return cg;
}

/* io.cost on, the model at bps for writes, no per-IO cost; qos extra keys if given. */
static void iocost_enable(u64 model_bps, const char *qos)
{
	char line[160];

	snprintf(line, sizeof(line), "254:0 wbps=%llu wseqiops=1000000 wrandiops=1000000",
		 (unsigned long long)model_bps);
	conf(blkcg_io_cost_model_store, blkcg_root, line);
	snprintf(line, sizeof(line), "254:0 enable=1 %s", qos ? qos : "");
	conf(blkcg_io_cost_qos_store, blkcg_root, line);
}

static void writer_end_io(struct bio *bio)
{
	struct writer *w = bio->bi_private;

	cr_assert_eq(bio->bi_status, 0);
	w->bytes += bio->bi_size;
	w->inflight--;
	wake_up(&w->wq);
	bio_put(bio);
}

static void writer_submit_one(struct writer *w)
{
	struct bio *bio = bio_alloc(disk->part0, (unsigned short)w->pages, REQ_OP_WRITE, GFP_KERNEL);
	unsigned long flags;

	cr_assert_not_null(bio);
	for (unsigned int i = 0; i < w->pages; i++)
		cr_assert_eq(bio_add_page(bio, w->mem + i, PAGE_SIZE, 0), PAGE_SIZE);
	if (w->next + (w->pages << 3) > w->base + (DISK_BYTES >> SECTOR_SHIFT) / MAX_WRITERS)
		w->next = w->base;
	bio->bi_sector = w->next;
	w->next += w->pages << 3;
	if (w->meta_every && ++w->nr % w->meta_every == 0)
		bio->bi_opf |= REQ_META;
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

	while (ktime_get_ns() < w->end_ns) {
		wait_event(w->wq, w->inflight < w->depth);
		if (ktime_get_ns() >= w->end_ns)
			break;
		writer_submit_one(w);
		if (w->think_ns)
			msleep((unsigned int)(w->think_ns / NSEC_PER_MSEC));
	}
	wait_event(w->wq, w->inflight == 0);
	return 0;
}

static struct writer *writer_start(struct cgroup *cg, u64 run_ns)
{
	struct writer *w = &writers[nr_writers];

	memset(w, 0, sizeof(*w));
	w->cg = cg;
	w->depth = 32; /* deep enough to queue past the latency target, as writeback does */
	w->pages = 16;
	w->end_ns = ktime_get_ns() + run_ns;
	w->base = w->next = nr_writers * ((DISK_BYTES >> SECTOR_SHIFT) / MAX_WRITERS);
	nr_writers++;
	init_waitqueue_head(&w->wq);
	w->mem = alloc_pages(GFP_KERNEL, 8);
	cr_assert_not_null(w->mem);
	return w;
}

static void writer_go(struct writer *w)
{
	w->task = kthread_create(writer_fn, w, "writer");
	cr_assert_not_null(w->task);
	cgroup_attach_task(w->cg, w->task);
	wake_up_process(w->task);
}

static void writers_mark(void)
{
	for (unsigned int i = 0; i < nr_writers; i++)
		writers[i].bytes_at_mark = writers[i].bytes;
}

static void writers_join(void)
{
	for (unsigned int i = 0; i < nr_writers; i++) {
		cr_assert_eq(kthread_join(writers[i].task), 0);
		__free_pages(writers[i].mem, 8);
	}
}

/* Bytes/s of w from the mark to now (the writers still running). */
static double rate_since_mark(const struct writer *w, u64 secs)
{
	return (double)(w->bytes - w->bytes_at_mark) / (double)secs;
}

static u32 vrate_pct(void)
{
	struct blkg_iocost_stat st;

	cr_assert(blkcg_iocost_stat(blkcg_root, disk, &st));
	return st.vrate_pct100 / 100;
}

/* Run the writers: 2 s to settle, then measure for secs; returns with them still going. */
static void run_and_measure(u64 secs)
{
	host_run_for(2 * NSEC_PER_SEC);
	writers_mark();
	host_run_for(secs * NSEC_PER_SEC);
}

static void assert_share(const struct writer *w, double expected, u64 secs, double total)
{
	double share = rate_since_mark(w, secs) / total;

	cr_assert(share > expected * 0.85 && share < expected * 1.15,
		  "share %.3f, expected %.3f (+-15 %%)", share, expected);
}

Test(iocost_sim, weights_100_and_300_share_a_saturated_disk_1_to_3)
{
	struct writer *a, *b;
	double ra, rb;

	iocost_enable(DISK_BPS, QOS_LAT);
	a = writer_start(mkgroup(&cgroup_root, "a", 100), 12 * NSEC_PER_SEC);
	b = writer_start(mkgroup(&cgroup_root, "b", 300), 12 * NSEC_PER_SEC);
	writer_go(a);
	writer_go(b);
	run_and_measure(8);
	ra = rate_since_mark(a, 8);
	rb = rate_since_mark(b, 8);
	cr_assert(rb / ra >= 2.7 && rb / ra <= 3.3, "b/a %.2f (a %.1f MiB/s, b %.1f MiB/s)",
		  rb / ra, ra / MiB, rb / MiB);
	cr_assert_geq(ra + rb, 0.9 * DISK_BPS, "the disk is kept busy: %.1f MiB/s", (ra + rb) / MiB);
	writers_join();
}

Test(iocost_sim, without_io_cost_the_same_writers_share_equally)
{
	struct writer *a, *b;
	double ratio;

	a = writer_start(mkgroup(&cgroup_root, "a", 100), 6 * NSEC_PER_SEC);
	b = writer_start(mkgroup(&cgroup_root, "b", 300), 6 * NSEC_PER_SEC);
	writer_go(a);
	writer_go(b);
	run_and_measure(3);
	ratio = rate_since_mark(b, 3) / rate_since_mark(a, 3);
	cr_assert(ratio > 0.8 && ratio < 1.25, "b/a %.2f: weights act without io.cost", ratio);
	writers_join();
}

/* p (100) holds c1 (100) and c2 (300); q (100) beside p: 1/2, 1/8, 3/8 of the disk */
Test(iocost_sim, nested_groups_get_their_hierarchical_weight)
{
	struct cgroup *p, *q;
	struct writer *w1, *w2, *wq;
	double total;

	iocost_enable(DISK_BPS, QOS_LAT);
	p = mkgroup(&cgroup_root, "p", 100);
	q = mkgroup(&cgroup_root, "q", 100);
	cr_assert_eq(cgroup_subtree_control_write(p, "+io"), 0);
	w1 = writer_start(mkgroup(p, "c1", 100), 12 * NSEC_PER_SEC);
	w2 = writer_start(mkgroup(p, "c2", 300), 12 * NSEC_PER_SEC);
	wq = writer_start(q, 12 * NSEC_PER_SEC);
	writer_go(w1);
	writer_go(w2);
	writer_go(wq);
	run_and_measure(8);
	total = rate_since_mark(w1, 8) + rate_since_mark(w2, 8) + rate_since_mark(wq, 8);
	cr_assert_geq(total, 0.9 * DISK_BPS);
	assert_share(wq, 0.5, 8, total);
	assert_share(w1, 0.125, 8, total);
	assert_share(w2, 0.375, 8, total);
	writers_join();
}

/* A low-weight group alone has the whole disk; an idle heavy group takes nothing from it. */
Test(iocost_sim, work_conserving_alone_and_beside_a_light_group)
{
	struct writer *a, *b;
	double ra, rb;

	iocost_enable(DISK_BPS, QOS_LAT);
	mkgroup(&cgroup_root, "idle", 1000);
	a = writer_start(mkgroup(&cgroup_root, "a", 25), 14 * NSEC_PER_SEC);
	writer_go(a);
	run_and_measure(3);
	ra = rate_since_mark(a, 3);
	cr_assert_geq(ra, 0.95 * DISK_BPS, "alone: %.1f MiB/s", ra / MiB);

	/* b, weight 400, wants less than 10 % of the disk: a keeps the rest (donation) */
	b = writer_start(mkgroup(&cgroup_root, "b", 400), 8 * NSEC_PER_SEC);
	b->depth = 1;
	b->think_ns = 10 * NSEC_PER_MSEC; /* 64 KiB per ~11 ms: 5.7 MiB/s */
	writer_go(b);
	run_and_measure(5);
	ra = rate_since_mark(a, 5);
	rb = rate_since_mark(b, 5);
	/* b's bios queue on the disk behind a's (up to the 20 ms target), so its demand sinks */
	cr_assert_geq(rb, 3.0 * MiB, "b gets what it asks for: %.1f MiB/s", rb / MiB);
	cr_assert_geq(ra, 0.75 * DISK_BPS, "a, weight 25 of 425, takes what b leaves: %.1f MiB/s",
		      ra / MiB);
	cr_assert_geq(ra + rb, 0.9 * DISK_BPS, "donated budget is used: a %.1f, b %.1f MiB/s",
		      ra / MiB, rb / MiB);
	writers_join();
}

/* The model says the disk is twice as fast as it is: the latency target brings vrate down. */
Test(iocost_sim, vrate_converges_to_the_device_capacity)
{
	struct writer *a, *b;
	double ra, rb;
	u32 vrate;

	iocost_enable(2 * DISK_BPS, QOS_LAT);
	a = writer_start(mkgroup(&cgroup_root, "a", 100), 22 * NSEC_PER_SEC);
	b = writer_start(mkgroup(&cgroup_root, "b", 300), 22 * NSEC_PER_SEC);
	writer_go(a);
	writer_go(b);
	host_run_for(10 * NSEC_PER_SEC);
	writers_mark();
	host_run_for(8 * NSEC_PER_SEC);
	vrate = vrate_pct();
	ra = rate_since_mark(a, 8);
	rb = rate_since_mark(b, 8);
	cr_assert(vrate >= 35 && vrate <= 65, "vrate %u %%, the device is 50 %% of the model", vrate);
	cr_assert(rb / ra >= 2.5 && rb / ra <= 3.5, "b/a %.2f", rb / ra);
	writers_join();
}

/* Half the real speed in the model, groups held back, latency fine: vrate goes up. */
Test(iocost_sim, vrate_rises_when_the_device_has_room)
{
	struct writer *a;
	double ra;
	u32 vrate;

	iocost_enable(DISK_BPS / 2, QOS_LAT);
	a = writer_start(mkgroup(&cgroup_root, "a", 100), 14 * NSEC_PER_SEC);
	writer_go(a);
	host_run_for(10 * NSEC_PER_SEC);
	writers_mark();
	host_run_for(3 * NSEC_PER_SEC);
	vrate = vrate_pct();
	ra = rate_since_mark(a, 3);
	cr_assert_geq(vrate, 150, "vrate %u %%", vrate);
	cr_assert_geq(ra, 0.8 * DISK_BPS, "%.1f MiB/s", ra / MiB);
	writers_join();
}

/* Every 4th bio of a is metadata: it never waits, is paid as debt, and a's share holds. */
Test(iocost_sim, debt_of_metadata_is_paid_and_the_share_holds)
{
	struct blkg_iocost_stat st;
	struct writer *a, *b;
	double ra, rb;

	iocost_enable(DISK_BPS, QOS_LAT);
	a = writer_start(mkgroup(&cgroup_root, "a", 100), 12 * NSEC_PER_SEC);
	b = writer_start(mkgroup(&cgroup_root, "b", 300), 12 * NSEC_PER_SEC);
	a->meta_every = 4;
	writer_go(a);
	writer_go(b);
	run_and_measure(8);
	ra = rate_since_mark(a, 8);
	rb = rate_since_mark(b, 8);
	cr_assert(rb / ra >= 2.6 && rb / ra <= 3.4, "b/a %.2f", rb / ra);
	cr_assert(blkcg_iocost_stat(blkcg_of(a->cg), disk, &st));
	cr_assert_gt(st.indebt_us, 0, "a was in debt");
	cr_assert(blkcg_iocost_stat(blkcg_of(b->cg), disk, &st));
	cr_assert_eq(st.indebt_us, 0, "b never was");
	writers_join();
	host_run_for(2 * NSEC_PER_SEC);
	cr_assert(blkcg_iocost_stat(blkcg_of(a->cg), disk, &st));
	cr_assert_gt(st.usage_us, 0);
}

/*
 * io.max and io.cost together, as in Linux: a bio passes io.max first, then io.cost. a
 * (weight 300) is held to 8 MiB/s by io.max, far below its weight's share: it keeps its
 * limit exactly, and b (weight 100) gets the rest of the disk through a's donation.
 */
Test(iocost_sim, io_max_and_io_cost_together)
{
	struct cgroup *ca;
	struct writer *a, *b;
	double ra, rb;

	iocost_enable(DISK_BPS, QOS_LAT);
	ca = mkgroup(&cgroup_root, "a", 300);
	conf(blkcg_io_max_store, blkcg_of(ca), "254:0 wbps=8388608");
	a = writer_start(ca, 12 * NSEC_PER_SEC);
	b = writer_start(mkgroup(&cgroup_root, "b", 100), 12 * NSEC_PER_SEC);
	writer_go(a);
	writer_go(b);
	run_and_measure(8);
	ra = rate_since_mark(a, 8);
	rb = rate_since_mark(b, 8);
	cr_assert(ra >= 0.95 * 8 * MiB && ra <= 1.05 * 8 * MiB, "a at its io.max: %.2f MiB/s",
		  ra / MiB);
	cr_assert_geq(rb, 0.85 * (DISK_BPS - 8 * MiB), "b takes what a cannot use: %.1f MiB/s",
		      rb / MiB);
	writers_join();
}

/*
 * Once a group's debt is paid, its delay decays and clears, as Linux keeps kicking a group
 * while it has debt or a delay: once the debt is paid (a few seconds here) it halves every
 * second from at most 250 ms, so it is gone 11 s later, and cost.indelay stops growing.
 * It never cleared: the paid group was no longer visited.
 */
Test(iocost_sim, a_paid_debt_lets_the_delay_clear)
{
	struct blkg_iocost_stat st;
	struct writer *a;
	u64 indelay;

	iocost_enable(DISK_BPS / 4, QOS_LAT);
	a = writer_start(mkgroup(&cgroup_root, "a", 100), 4 * NSEC_PER_SEC);
	a->meta_every = 1; /* all metadata: never waits, all paid as debt */
	writer_go(a);
	writers_join();
	cr_assert(blkcg_iocost_stat(blkcg_of(a->cg), disk, &st));
	cr_assert_gt(st.indelay_us, 0, "a was never delayed");
	host_run_for(30 * NSEC_PER_SEC); /* its debt paid, then the halvings */
	cr_assert(blkcg_iocost_stat(blkcg_of(a->cg), disk, &st));
	indelay = st.indelay_us;
	host_run_for(5 * NSEC_PER_SEC);
	cr_assert(blkcg_iocost_stat(blkcg_of(a->cg), disk, &st));
	cr_assert_eq(st.indelay_us, indelay, "still delayed %llu us after its debt was paid",
		     (unsigned long long)(st.indelay_us - indelay));
}

/* The group's io.cost state on the disk (read while the virtual clock stands still). */
static struct ioc_gq *iocg_of(struct cgroup *cg)
{
	struct blkcg_gq *blkg = blkg_lookup(blkcg_of(cg), blk_throtl_td_lookup(disk));

	cr_assert(blkg && blkg->iocg.ioc, "the group has met the disk's io.cost");
	return &blkg->iocg;
}

/*
 * A group in debt drops its inuse weight to the minimum until the debt is paid, as Linux
 * 6.1's iocg_incur_debt(): b, of the same weight, then has the whole budget
 * (hweight_inuse about 1). Without it, b stayed at half while a owed.
 */
Test(iocost_sim, a_debtor_lends_its_share_until_it_has_paid)
{
	struct writer *a, *b;
	u32 hwi;

	iocost_enable(DISK_BPS / 4, QOS_LAT);
	a = writer_start(mkgroup(&cgroup_root, "a", 100), 3 * NSEC_PER_SEC);
	b = writer_start(mkgroup(&cgroup_root, "b", 100), 3 * NSEC_PER_SEC);
	a->meta_every = 1; /* all of a's IO goes as debt */
	writer_go(a);
	writer_go(b);
	host_run_for(NSEC_PER_SEC);
	cr_assert_gt(iocg_of(a->cg)->abs_vdebt, 0, "a owes");
	cr_assert_eq(iocg_of(a->cg)->inuse, 1, "a's inuse %u while in debt", iocg_of(a->cg)->inuse);
	current_hweight(iocg_of(b->cg), NULL, &hwi);
	cr_assert_geq(hwi, WEIGHT_ONE * 95 / 100, "b's hweight_inuse %.3f", (double)hwi / WEIGHT_ONE);
	writers_join();
	host_run_for(20 * NSEC_PER_SEC);
	cr_assert_eq(iocg_of(a->cg)->abs_vdebt, 0, "paid");
}

/*
 * A task being killed does not wait for its group's budget (Linux: fatal_signal_pending()
 * in ioc_rqos_throttle()): its bios go at once, as debt. a runs over its budget, waiting;
 * killed, it stops waiting.
 */
Test(iocost_sim, a_killed_task_does_not_wait_for_the_budget)
{
	struct blkg_iocost_stat st;
	struct writer *a;
	u64 wait_at_kill;

	iocost_enable(DISK_BPS / 4, QOS_LAT);
	a = writer_start(mkgroup(&cgroup_root, "a", 100), 4 * NSEC_PER_SEC);
	writer_go(a);
	host_run_for(2 * NSEC_PER_SEC);
	cr_assert(blkcg_iocost_stat(blkcg_of(a->cg), disk, &st));
	cr_assert_gt(st.wait_us, 0, "a waited for its budget");
	cr_assert_eq(st.indebt_us, 0);
	send_sig(SIGKILL, a->task);
	host_run_for(NSEC_PER_MSEC * 50); /* the waiter already queued goes in its turn */
	cr_assert(blkcg_iocost_stat(blkcg_of(a->cg), disk, &st));
	wait_at_kill = st.wait_us;
	host_run_for(NSEC_PER_SEC);
	cr_assert(blkcg_iocost_stat(blkcg_of(a->cg), disk, &st));
	cr_assert_gt(st.indebt_us, 0, "killed, a's bios went as debt");
	cr_assert_lt(st.wait_us - wait_at_kill, 50000, "a waited %llu us more",
		     (unsigned long long)(st.wait_us - wait_at_kill));
	writers_join();
}

/* A disk of 64 KiB/s: one 64 KiB bio is in flight for a second, 25 periods of 40 ms. */
static void setup_slow(void)
{
	setup_disk(64 * 1024);
}

TestSuite(iocost_sim_slow, .init = setup_slow, .fini = teardown, .timeout = 60);

/*
 * A group whose IO is in flight is not idle, as Linux's iocg_is_idle(): it stays active
 * (its weight in the sums) until the IO ends, though it issued nothing for many periods.
 * It was deactivated after one period.
 */
Test(iocost_sim_slow, io_in_flight_keeps_its_group_active)
{
	struct ioc_gq *iocg;
	struct writer *a;

	iocost_enable(DISK_BPS, QOS_LAT); /* the model thinks it fast: the bio goes at once */
	a = writer_start(mkgroup(&cgroup_root, "a", 100), NSEC_PER_MSEC);
	a->depth = 1;
	writer_go(a);
	host_run_for(500 * NSEC_PER_MSEC);
	iocg = iocg_of(a->cg);
	cr_assert_eq(a->inflight, 1, "the bio is still in flight");
	cr_assert(list_empty(&iocg->waiters), "and not waiting for budget");
	cr_assert_not(list_empty(&iocg->active_list), "a was deactivated with its IO in flight");
	writers_join();
	host_run_for(500 * NSEC_PER_MSEC);
	cr_assert(list_empty(&iocg->active_list), "idle once its IO ended");
}
