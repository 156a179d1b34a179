/*
 * Simulations of foreign inodes (issue: owner detection, inode wb switching, memcg foreign
 * flush), in virtual time on a modelled disk: a switch moves an inode's dirty and writeback
 * counts exactly; a group that rewrites another group's file takes it over in Linux's time
 * (and in the opt-in mode within one round, 4 MiB, also when it is limited by io.max and
 * its writes would otherwise escape at the owner's speed, without bouncing between groups
 * taking turns); an owner with a 2/3 majority keeps its inode for ten
 * minutes; switches racing rmdir and umount lose nothing; a throttled group's records of
 * foreign wbs make those wbs write; a switch waits for an updater on another CPU that read
 * the old wb before the switch began.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <cgwb/fs.h>
#include <cgwb/backing-dev.h>
#include <cgwb/memcontrol.h>
#include <cgwb/pagemap.h>
#include <cgwb/vmstat.h>
#include <cgwb/vmscan.h>
#include <cgwb/writeback.h>
#include <cgwb/errno.h>
#include <cgwb/rcupdate.h>
#include "../../../fs/internal.h"
#include "host.h"
#include "sim.h"

static const struct sim_config cfg = {
	.mem_mib = 192,
	.disk_mib = 256,
	.disk_bps = 32 * MiB,
	.disk_latency_ns = 50 * NSEC_PER_USEC,
};

static void teardown(void)
{
	vm_dirty_foreign_fast_switch = 0;
	sim_shutdown();
}

TestSuite(sim_foreign, .fini = teardown, .timeout = 600);

/* The inode of path, referenced (iput when done). */
static struct inode *file_inode_get(const char *path)
{
	struct path p;

	cr_assert_eq(kern_path(path, LOOKUP_FOLLOW, &p), 0, "%s", path);
	struct inode *inode = igrab(p.dentry->d_inode);
	path_put(&p);
	cr_assert_not_null(inode);
	return inode;
}

static struct mem_cgroup *cg_memcg(const char *cg)
{
	struct cgroup *cgrp = cgroup_lookup(cg);

	cr_assert_not_null(cgrp, "cgroup %s", cg);
	struct mem_cgroup *memcg = mem_cgroup_from_css(cgroup_e_css(cgrp, memory_cgrp_id));
	cgroup_put(cgrp);
	return memcg;
}

static long memcg_pages(const char *cg, enum node_stat_item item)
{
	return memcg_page_state_local(cg_memcg(cg), item);
}

/*
 * Dirty and writeback pages machine-wide, less the root wb's: those are the block device's
 * metadata buffers, which a flusher writing an inode may dirty at any moment (ext2 copies
 * the inode into its table block), whatever a switch does.
 */
static long file_pages_outside_root_wb(void)
{
	struct bdi_writeback *root = &sim_bdi()->wb;

	return global_node_page_state_signed(NR_FILE_DIRTY) +
	       global_node_page_state_signed(NR_WRITEBACK) -
	       (long)(wb_stat_sum(root, WB_RECLAIMABLE) + wb_stat_sum(root, WB_WRITEBACK));
}

/*
 * A page a flusher holds between cleaning it for IO and setting it under writeback: its
 * submission of the bio before it may wait (an indirect block read behind another group's
 * throttled IO), and meanwhile the page counts as neither dirty nor writeback. Locked,
 * still tagged dirty.
 */
static bool page_held_for_io(struct inode *inode, struct page *page)
{
	struct page *head = compound_head(page);

	return PageLocked(head) && !PageDirty(head) && !PageWriteback(head) &&
	       xa_get_mark(&inode->i_mapping->i_pages, head->index, PAGECACHE_TAG_DIRTY);
}

/* The file's pages held so (above). */
static long file_pages_held_for_io(struct inode *inode)
{
	long n = 0;

	for (pgoff_t i = 0; i <= (pgoff_t)(inode->i_size >> PAGE_SHIFT); i++) {
		struct page *page = find_get_page(inode->i_mapping, i);

		if (!page)
			continue;
		n += page_held_for_io(inode, page);
		put_page(page);
	}
	return n;
}

/* The file's dirty and writeback pages charged to group cg (charges stay with the page). */
static long file_pages_charged_to(struct inode *inode, const char *cg)
{
	struct mem_cgroup *memcg = cg_memcg(cg);
	long n = 0;

	for (pgoff_t i = 0; i <= (pgoff_t)(inode->i_size >> PAGE_SHIFT); i++) {
		struct page *page = find_get_page(inode->i_mapping, i);

		if (!page)
			continue;
		if ((PageDirty(page) || PageWriteback(page) || page_held_for_io(inode, page)) &&
		    page_memcg(page) == memcg)
			n++;
		put_page(page);
	}
	return n;
}

static void assert_no_warning(void)
{
	cr_assert(!host_log_contains("WARNING"), "a warning was logged:\n%s", host_log());
}

/*
 * Property: a switch moves exactly the inode's D dirty and W writeback pages from the old
 * wb to the new one, leaves the global and memcg counters alone, and everything still
 * agrees afterwards while the old wb's throttled bios complete into the new wb.
 */
Test(sim_foreign, a_switch_moves_dirty_and_writeback_counts_with_the_inode)
{
	sim_boot(&cfg);
	sim_mkcg("A");
	sim_mkcg("B");
	cr_assert_eq(sim_write_range("A", "/mnt/f", 0, 6 * MiB), (long)(6 * MiB));
	cr_assert_eq(sim_write_range("B", "/mnt/g", 0, 1 * MiB), (long)MiB);
	/* A's IO crawls: the pages it starts writing stay under writeback */
	cr_assert_eq(sim_echo("/sys/fs/cgroup/A/io.max", "254:0 wbps=65536"), 0);
	struct inode *inode = file_inode_get("/mnt/f");
	cr_assert_eq(filemap_fdatawrite_range(inode->i_mapping, 0, 4 * MiB - 1), 0);
	/* B dirties new pages of A's file (charged to B) */
	cr_assert_eq(sim_write_range("B", "/mnt/f", 6 * MiB, 2 * MiB), (long)(2 * MiB));
	host_run_until_idle();

	struct bdi_writeback *old_wb = inode_to_wb(inode), *new_wb = sim_file_wb("/mnt/g");
	s64 d = wb_stat_sum(old_wb, WB_RECLAIMABLE), w = wb_stat_sum(old_wb, WB_WRITEBACK);
	s64 new_d = wb_stat_sum(new_wb, WB_RECLAIMABLE), new_w = wb_stat_sum(new_wb, WB_WRITEBACK);
	/* pages may only go from dirty to writeback meanwhile: compare sums */
	long global = file_pages_outside_root_wb();
	/* the file's own pages: a flusher may dirty metadata buffers charged to either group */
	long a_pages = file_pages_charged_to(inode, "A");
	long b_pages = file_pages_charged_to(inode, "B");
	cr_log_info("switching with D=%lld dirty and W=%lld writeback pages", d, w);
	cr_assert_eq(d, (s64)(4 * MiB / PAGE_SIZE), "2 MiB of A's and 2 MiB of B's are dirty");
	cr_assert_gt(w, 768, "A's throttled writeback should hold most of 4 MiB");
	sim_assert_counters("before the switch");

	u64 b_before = sim_cg_value("B", "io.stat", "wbytes"); /* B's flusher may start at once */
	inode_switch_wbs(inode, sim_memcg_id("B"));
	inode_switch_wbs(inode, sim_memcg_id("B"));
	cr_assert_eq(wb_switches_in_flight(), 1, "a second switch of a switching inode was queued");
	cr_assert(inode->i_state & I_WB_SWITCH);
	host_run_until_idle(); /* the switch runs; no time passes, no IO completes */

	cr_assert_eq(wb_switches_in_flight(), 0);
	cr_assert(!(inode->i_state & I_WB_SWITCH));
	cr_assert_eq(inode_to_wb(inode), new_wb);
	cr_assert_eq(wb_stat_sum(old_wb, WB_RECLAIMABLE), 0);
	cr_assert_eq(wb_stat_sum(old_wb, WB_WRITEBACK), 0);
	/* the new wb's flusher, woken by the switch, may already move pages from D to W */
	long held = file_pages_held_for_io(inode);
	cr_assert_eq(wb_stat_sum(new_wb, WB_RECLAIMABLE) + wb_stat_sum(new_wb, WB_WRITEBACK) + held,
		     new_d + new_w + d + w);
	cr_assert_geq(wb_stat_sum(new_wb, WB_WRITEBACK), new_w + w);
	cr_assert_eq(file_pages_outside_root_wb() + held, global);
	cr_assert_eq(file_pages_charged_to(inode, "A"), a_pages,
		     "charges do not move with the inode");
	cr_assert_eq(file_pages_charged_to(inode, "B"), b_pages);
	/* a fresh vote: the new wb's flusher may have run one round since, too short for a slot */
	cr_assert_eq(inode->i_wb_frn_history, 0, "a switch starts a fresh vote");
	cr_assert_eq(inode->i_wb_frn_prev, sim_memcg_id("A"));
	sim_assert_counters("after the switch");

	/* on a list of the new wb (its flusher may have queued it already); b_dirty sorted */
	bool found = false;
	unsigned long prev = ~0UL;
	struct inode *pos;
	spin_lock(&new_wb->list_lock);
	list_for_each_entry(pos, &new_wb->b_dirty, i_io_list) {
		cr_assert(!time_after(pos->dirtied_when, prev), "b_dirty out of order");
		prev = pos->dirtied_when;
		found |= pos == inode;
	}
	list_for_each_entry(pos, &new_wb->b_io, i_io_list)
		found |= pos == inode;
	list_for_each_entry(pos, &new_wb->b_more_io, i_io_list)
		found |= pos == inode;
	spin_unlock(&new_wb->list_lock);
	/* unless the new wb's flusher has already written all of it (pages now under writeback) */
	cr_assert(found || !(READ_ONCE(inode->i_state) &
			     (I_DIRTY_SYNC | I_DIRTY_DATASYNC | I_DIRTY_PAGES)),
		  "the dirty inode is on no list of the new wb");

	/* the old wb's throttled bios complete into the new wb's counts */
	cr_assert_eq(sim_echo("/sys/fs/cgroup/A/io.max", "254:0 wbps=max"), 0);
	ksys_sync();
	for (int i = 0; i < 100 && global_node_page_state_snapshot(NR_WRITEBACK); i++) {
		sim_assert_counters("draining");
		host_run_for(100 * MSEC);
	}
	sim_assert_counters("after sync");
	cr_assert_eq(global_node_page_state_snapshot(NR_FILE_DIRTY), 0);
	cr_assert_eq(global_node_page_state_snapshot(NR_WRITEBACK), 0);
	cr_assert_geq(sim_cg_value("B", "io.stat", "wbytes") - b_before, 4 * MiB,
		      "the inode's remaining dirty pages were not written under B");
	assert_no_warning();
	iput(inode);
}

/*
 * Switches racing dirtying, clearing for IO and writeback completion of the same inode:
 * B rewrites A's file without pause, background writeback runs all the time, and the inode
 * is sent back and forth between A's and B's wbs every 5 ms. No count is lost or doubled
 * at any step, only one switch is ever pending, and everything drains to zero.
 */
static void switches_racing_dirtying_and_writeback(bool fast)
{
	sim_boot(&cfg);
	if (fast)
		cr_assert_eq(sim_echo("/proc/sys/vm/dirty_foreign_fast_switch", "1"), 0);
	sim_mkcg("A");
	sim_mkcg("B");
	cr_assert_eq(sim_write_range("A", "/mnt/f", 0, 4 * MiB), (long)(4 * MiB));
	cr_assert_eq(sim_echo("/proc/sys/vm/dirty_background_bytes", "1048576"), 0);
	struct inode *inode = file_inode_get("/mnt/f");
	int ids[2] = { sim_memcg_id("A"), sim_memcg_id("B") };
	struct bdi_writeback *last = inode_to_wb(inode);
	int moves = 0;

	/* pages 0-4 MiB are A's (cached), 4-8 MiB become B's */
	sim_writer_start("B", "/mnt/f", 64 * 1024, 8 * MiB, 0, 2000);
	for (int i = 0; i < 2000; i++) {
		inode_switch_wbs(inode, ids[i % 2]);
		cr_assert_leq(wb_switches_in_flight(), 1);
		host_run_for(5 * MSEC);
		sim_assert_counters("switching");
		if (inode_to_wb(inode) != last) {
			last = inode_to_wb(inode);
			moves++;
		}
	}
	sim_writers_stop();
	cr_log_info("the inode moved %d times", moves);
	cr_assert_gt(moves, 1000, "only %d switches happened", moves);
	cr_assert_gt(global_node_page_state_snapshot(NR_WRITTEN), 50 * MiB / PAGE_SIZE,
		     "little writeback");
	ksys_sync();
	host_run_until_idle();
	sim_assert_counters("after sync");
	cr_assert_eq(global_node_page_state_snapshot(NR_FILE_DIRTY), 0);
	cr_assert_eq(global_node_page_state_snapshot(NR_WRITEBACK), 0);
	cr_assert_eq(wb_switches_in_flight(), 0);
	iput(inode);
	assert_no_warning();
}

Test(sim_foreign, switches_racing_dirtying_and_writeback_lose_no_count)
{
	switches_racing_dirtying_and_writeback(false);
}

/* The same with the opt-in mode's cut rounds and switching inodes left to their new wb. */
Test(sim_foreign, switches_racing_dirtying_and_writeback_lose_no_count_in_the_opt_in_mode)
{
	switches_racing_dirtying_and_writeback(true);
}

/*
 * The foreign rewrite workload: A writes a 32 MiB file and syncs, the page cache is
 * dropped, then B rewrites the whole file once a second for 10 s (dd conv=notrunc, then
 * sync unless the flushers are left to write it). How long until the inode is B's, and
 * how much of B's writeback was charged to A. With B under io.max, what A was charged for
 * went out at A's speed instead of B's limit: the escape the fast switch bounds.
 */
struct rewrite_case {
	bool fast;       /* dirty_foreign_fast_switch */
	u64 b_wbps;      /* B's io.max (0: none) */
	bool parallel;   /* each rewrite a task of its own (a slow sync overlaps) */
	bool no_sync;    /* the flushers write it (every second, 1 s expiry) */
	bool sync_first; /* the sync's integrity pass reaches the file before any other round */
};

struct rewriter {
	const struct rewrite_case *c;
	u64 t0;
	int first, count; /* rewrites first.. at t0 + i s */
	bool done;
};

static int rewriter_main(void *arg)
{
	struct rewriter *r = arg;

	for (int i = r->first; i < r->first + r->count; i++) {
		host_advance_to(r->t0 + (u64)i * SEC);
		cr_assert_eq(sim_write_range("B", "/mnt/f", 0, 32 * MiB), (long)(32 * MiB));
		if (r->c->sync_first) {
			struct inode *inode = file_inode_get("/mnt/f");

			sync_inodes_sb(inode->i_sb);
			iput(inode);
		}
		if (!r->c->no_sync)
			ksys_sync();
	}
	WRITE_ONCE(r->done, true);
	return 0;
}

/* The wb_attribution row of (ino, cgroup id): bytes written and charged elsewhere. */
static bool audit_row(unsigned long ino, unsigned int cg_id, u64 *written, u64 *elsewhere)
{
	static char buf[32 * 1024];
	char *line, *save = NULL;
	struct file *f = filp_open("/sys/kernel/debug/bdi/254:0/wb_attribution", O_RDONLY, 0);

	cr_assert(!IS_ERR(f));
	ssize_t n = file_read(f, buf, sizeof(buf) - 1);
	fput(f);
	cr_assert_gt(n, 0);
	buf[n] = 0;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long i;
		unsigned int c;
		unsigned long long w, e;

		if (sscanf(line, "%lu %u %llu %llu", &i, &c, &w, &e) == 4 && i == ino && c == cg_id) {
			*written = w;
			*elsewhere = e;
			return true;
		}
	}
	return false;
}

static unsigned int cgroup_id_of(const char *cg)
{
	struct cgroup *cgrp = cgroup_lookup(cg);
	unsigned int id = cgrp->id;

	cgroup_put(cgrp);
	return id;
}

/* Start the rewrites as one task, or one task each; true once all are done. */
static bool rewriters_done(struct rewriter *r, int n)
{
	for (int i = 0; i < n; i++)
		if (!READ_ONCE(r[i].done))
			return false;
	return true;
}

static void rewrite_workload(const struct rewrite_case *c, double *switch_s, u64 *misattributed)
{
	static const struct sim_config big = {
		.mem_mib = 512,
		.disk_mib = 256,
		.disk_bps = 100 * MiB,
		.disk_latency_ns = 50 * NSEC_PER_USEC,
	};
	static struct rewriter r[10];
	struct task_struct *tasks[10];
	int nr_tasks = c->parallel ? 10 : 1;
	char line[64];

	sim_boot(&big);
	if (c->fast) {
		cr_assert_eq(sim_echo("/proc/sys/vm/dirty_foreign_fast_switch", "2"), -EINVAL);
		cr_assert_eq(sim_echo("/proc/sys/vm/dirty_foreign_fast_switch", "1"), 0);
	}
	if (c->no_sync) {
		cr_assert_eq(sim_echo("/proc/sys/vm/dirty_expire_centisecs", "100"), 0);
		cr_assert_eq(sim_echo("/proc/sys/vm/dirty_writeback_centisecs", "100"), 0);
	}
	sim_mkcg("A");
	sim_mkcg("B");
	if (c->b_wbps) {
		snprintf(line, sizeof(line), "254:0 wbps=%llu", c->b_wbps);
		cr_assert_eq(sim_echo("/sys/fs/cgroup/B/io.max", line), 0);
	}
	cr_assert_eq(sim_write_range("A", "/mnt/f", 0, 32 * MiB), (long)(32 * MiB));
	ksys_sync();
	drop_pagecache();
	struct bdi_writeback *a_wb = sim_file_wb("/mnt/f");
	cr_assert_eq(mem_cgroup_id(wb_memcg(a_wb)), sim_memcg_id("A"));

	cr_assert_eq(sim_echo("/sys/kernel/debug/bdi/254:0/wb_attribution", "on"), -EINVAL);
	cr_assert_eq(sim_echo("/sys/kernel/debug/bdi/254:0/wb_attribution", "1"), 0);
	u64 a0 = sim_cg_value("A", "io.stat", "wbytes"), b0 = sim_cg_value("B", "io.stat", "wbytes");
	u64 t0 = host_now_ns();
	for (int i = 0; i < nr_tasks; i++) {
		r[i] = (struct rewriter){
			.c = c, .t0 = t0, .first = c->parallel ? i : 0, .count = c->parallel ? 1 : 10
		};
		tasks[i] = sim_task_start("B", rewriter_main, &r[i]);
	}
	*switch_s = -1;
	for (int i = 0; !rewriters_done(r, nr_tasks); i++) {
		if (*switch_s < 0 &&
		    mem_cgroup_id(wb_memcg(sim_file_wb("/mnt/f"))) == sim_memcg_id("B"))
			*switch_s = (double)(host_now_ns() - t0) / SEC;
		if (i % 10 == 0)
			sim_assert_counters("rewriting");
		host_run_for(10 * MSEC);
	}
	for (int i = 0; i < nr_tasks; i++)
		kthread_join(tasks[i]);
	if (c->no_sync)
		ksys_sync();
	sim_assert_counters("after the rewrites");
	*misattributed = sim_cg_value("A", "io.stat", "wbytes") - a0;
	u64 b_bytes = sim_cg_value("B", "io.stat", "wbytes") - b0;
	fprintf(stderr,
		"foreign rewrite (%s, B %s, %s): switch after %.2f s, %llu MiB charged to "
		"A, %llu MiB to B (Linux 6.1, B unlimited: 2.1 s, 96 MiB)\n",
		c->fast ? "opt-in" : "Linux mode", c->b_wbps ? "at io.max" : "unlimited",
		c->no_sync ? "flushers" : "sync", *switch_s, *misattributed / MiB, b_bytes / MiB);
	/* the audit tells what io.stat cannot: whose pages A was charged for */
	struct inode *inode = file_inode_get("/mnt/f");
	u64 written, elsewhere;
	cr_assert(audit_row(inode->i_ino, cgroup_id_of("B"), &written, &elsewhere), "no audit row "
										    "for B's "
										    "pages");
	cr_assert_eq(elsewhere, *misattributed);
	cr_assert(!audit_row(inode->i_ino, cgroup_id_of("A"), &written, &elsewhere), "A's pages "
										     "were dropped "
										     "from the "
										     "cache: none "
										     "written "
										     "since");
	iput(inode);
	/* every rewrite is written in full when B is not limited and each is synced */
	if (!c->b_wbps && !c->no_sync) {
		cr_assert_eq(written, 320 * MiB);
		cr_assert(*misattributed + b_bytes >= 320 * MiB &&
				  *misattributed + b_bytes <= 330 * MiB,
			  "B's 10 rewrites are 320 MiB of IO, not %llu MiB",
			  (*misattributed + b_bytes) / MiB);
	}
	assert_no_warning();
}

/* The workload in one mode: the switch time and the bytes charged to A within bounds. */
static void rewrite_within(const struct rewrite_case *c, double min_s, double max_s,
			   u64 max_misattributed)
{
	double switch_s;
	u64 misattributed;

	rewrite_workload(c, &switch_s, &misattributed);
	cr_assert(switch_s >= min_s && switch_s <= max_s, "switched after %.2f s", switch_s);
	cr_assert_leq(misattributed, max_misattributed, "%llu MiB charged to A", misattributed / MiB);
}

Test(sim_foreign, a_group_rewriting_anothers_file_takes_it_over_in_linux_time)
{
	static const struct rewrite_case linux_mode = { 0 };

	rewrite_within(&linux_mode, 1.0, 3.0, 128 * MiB);
}

/* Linux's mode with B limited: the same 1-3 s, all of it at A's speed (about 1 s of IO) */
Test(sim_foreign, a_limited_group_rewriting_anothers_file_escapes_its_limit_in_linux_mode)
{
	static const struct rewrite_case linux_mode = { .b_wbps = MiB, .parallel = true };
	double switch_s;
	u64 misattributed;

	rewrite_workload(&linux_mode, &switch_s, &misattributed);
	cr_assert(switch_s >= 1.0 && switch_s <= 3.0, "switched after %.2f s", switch_s);
	cr_assert(misattributed >= 64 * MiB && misattributed <= 128 * MiB, "%llu MiB charged to A",
		  misattributed / MiB);
}

/*
 * The opt-in mode switches within the first writeback round, which ends as soon as it is
 * clearly B's: at most 8 MiB are charged to A (4 here), limited or not, whether a sync or
 * the flushers write the pages.
 */
Test(sim_foreign, the_opt_in_mode_takes_it_over_within_one_round)
{
	static const struct rewrite_case fast = { .fast = true };

	rewrite_within(&fast, 0, 1.0, 8 * MiB);
}

/*
 * On several CPUs the flusher may take sync_inodes_sb()'s work before the best-effort round
 * that sync(2) asked for first: then the integrity pass is the first to meet B's pages. A
 * pass that another follows ends a clear round too, so the bound is the same.
 */
Test(sim_foreign, the_opt_in_mode_takes_it_over_within_one_round_when_a_sync_pass_comes_first)
{
	static const struct rewrite_case fast = { .fast = true, .sync_first = true };

	rewrite_within(&fast, 0, 1.0, 8 * MiB);
}

Test(sim_foreign, the_opt_in_mode_holds_a_limited_group_to_its_limit_under_sync)
{
	static const struct rewrite_case fast = { .fast = true, .b_wbps = MiB, .parallel = true };

	rewrite_within(&fast, 0, 1.0, 8 * MiB);
}

Test(sim_foreign, the_opt_in_mode_holds_a_limited_group_to_its_limit_under_the_flushers)
{
	static const struct rewrite_case fast = { .fast = true, .b_wbps = MiB, .no_sync = true };

	rewrite_within(&fast, 0, 2.0, 8 * MiB);
}

/*
 * No flapping in the opt-in mode: A and B take turns rewriting A's file, each bringing its
 * own pages in (the cache is dropped between turns), 20 turns. The first of B's turns
 * takes the inode over; A's turns never take it back (A is the group it left, which needs
 * 12 of 16 slots), so it moves once.
 */
Test(sim_foreign, the_opt_in_mode_does_not_bounce_between_groups_taking_turns)
{
	static const char *const turn[2] = { "B", "A" };
	int moves = 0;

	sim_boot(&cfg);
	cr_assert_eq(sim_echo("/proc/sys/vm/dirty_foreign_fast_switch", "1"), 0);
	sim_mkcg("A");
	sim_mkcg("B");
	cr_assert_eq(sim_write_range("A", "/mnt/f", 0, 16 * MiB), (long)(16 * MiB));
	ksys_sync();
	struct bdi_writeback *last = sim_file_wb("/mnt/f");
	for (int i = 0; i < 20; i++) {
		drop_pagecache();
		cr_assert_eq(sim_write_range(turn[i % 2], "/mnt/f", 0, 16 * MiB), (long)(16 * MiB));
		ksys_sync();
		host_run_for(SEC);
		if (sim_file_wb("/mnt/f") != last) {
			last = sim_file_wb("/mnt/f");
			moves++;
		}
		sim_assert_counters("taking turns");
	}
	cr_assert_eq(moves, 1, "the inode moved %d times in 20 turns", moves);
	cr_assert_eq(mem_cgroup_id(wb_memcg(last)), sim_memcg_id("B"));
	assert_no_warning();
}

/*
 * The rule Linux keeps and cgwb documents: pages stay charged to whoever brought them into
 * the cache. B rewriting A's still-cached file writes A's pages, so A wins every vote, the
 * inode stays A's, and all the IO is charged to A.
 */
Test(sim_foreign, rewriting_a_cached_file_does_not_switch)
{
	sim_boot(&cfg);
	sim_mkcg("A");
	sim_mkcg("B");
	cr_assert_eq(sim_write_range("A", "/mnt/f", 0, 8 * MiB), (long)(8 * MiB));
	ksys_sync();
	struct bdi_writeback *a_wb = sim_file_wb("/mnt/f");
	u64 a0 = sim_cg_value("A", "io.stat", "wbytes");

	for (int i = 0; i < 20; i++) {
		cr_assert_eq(sim_write_range("B", "/mnt/f", 0, 8 * MiB), (long)(8 * MiB));
		ksys_sync();
		host_run_for(SEC);
		cr_assert_eq(sim_file_wb("/mnt/f"), a_wb, "the inode moved after rewrite %d", i);
	}
	cr_assert_eq(sim_cg_value("B", "io.stat", "wbytes"), 0);
	cr_assert_geq(sim_cg_value("A", "io.stat", "wbytes") - a0, 160 * MiB);
	cr_assert_eq(memcg_pages("B", NR_FILE_PAGES), 0, "B was charged for A's cached pages");
}

/*
 * No flip-flop: the owner dirties 2/3 of every round's bytes, another group the rest. Ten
 * minutes of virtual time of periodic writeback never move the inode.
 */
Test(sim_foreign, an_owner_with_two_thirds_of_the_writes_keeps_its_inode)
{
	sim_boot(&cfg);
	sim_mkcg("A");
	sim_mkcg("B");
	cr_assert_eq(sim_write_range("A", "/mnt/f", 0, 2 * MiB), (long)(2 * MiB));
	cr_assert_eq(sim_write_range("B", "/mnt/f", 2 * MiB, 1 * MiB), (long)MiB);
	struct bdi_writeback *a_wb = sim_file_wb("/mnt/f");
	u64 b0 = sim_cg_value("B", "io.stat", "wbytes");
	/* a writeback round every second or so: hundreds of votes */
	cr_assert_eq(sim_echo("/proc/sys/vm/dirty_expire_centisecs", "100"), 0);
	cr_assert_eq(sim_echo("/proc/sys/vm/dirty_writeback_centisecs", "100"), 0);

	for (int s = 0; s < 600; s++) {
		sim_write_range("A", "/mnt/f", 0, 2 * MiB);
		sim_write_range("B", "/mnt/f", 2 * MiB, 1 * MiB);
		cr_assert_eq(sim_file_wb("/mnt/f"), a_wb, "the inode moved at t=%d s", s);
		if (s % 10 == 0)
			sim_assert_counters("taking turns");
		host_run_for(SEC);
	}
	cr_assert_gt(sim_cg_value("A", "io.stat", "wbytes"), 300 * MiB, "few rounds happened");
	cr_assert_eq(sim_cg_value("B", "io.stat", "wbytes"), b0, "B was charged for A's inode");
	assert_no_warning();
}

static void read_back(const char *path, u64 size)
{
	static char buf[64 * 1024];
	struct file *f = filp_open(path, O_RDONLY, 0);
	u64 total = 0;
	ssize_t n;

	cr_assert(!IS_ERR(f));
	while ((n = file_read(f, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++)
			cr_assert_eq((u8)buf[i], 0x5a, "%s: byte %llu", path, total + (u64)i);
		total += (u64)n;
	}
	fput(f);
	cr_assert_eq(total, size);
}

/* rmdir of the group the inode leaves, between the request and the switch. */
Test(sim_foreign, a_switch_racing_rmdir_of_the_old_group_loses_nothing)
{
	sim_boot(&cfg);
	sim_mkcg("A");
	sim_mkcg("B");
	sim_write_range("A", "/mnt/f", 0, 4 * MiB);
	sim_write_range("B", "/mnt/f", 4 * MiB, 4 * MiB);
	cr_assert_eq(mem_cgroup_id(wb_memcg(sim_file_wb("/mnt/f"))), sim_memcg_id("A"));
	struct inode *inode = file_inode_get("/mnt/f");
	int b_id = sim_memcg_id("B");

	/* the switch work waits for the rwsem: the group is gone before it runs */
	down_write(&sim_bdi()->wb_switch_rwsem);
	inode_switch_wbs(inode, b_id);
	cr_assert_eq(do_rmdir("/sys/fs/cgroup/A"), 0);
	host_run_until_idle();
	cr_assert_eq(wb_switches_in_flight(), 1);
	up_write(&sim_bdi()->wb_switch_rwsem);
	/* A's wb also holds /mnt (A's task dirtied the directory): it goes once written */
	for (int i = 0; i < 600 && (wb_switches_in_flight() || nr_cgwbs() > 1); i++) {
		sim_assert_counters("after rmdir");
		host_run_for(100 * MSEC);
	}
	cr_assert_eq(mem_cgroup_id(wb_memcg(inode_to_wb(inode))), b_id);
	cr_assert_eq(nr_cgwbs(), 1, "the dead group's wb was not released");
	iput(inode);
	ksys_sync();
	sim_assert_counters("after sync");
	cr_assert_eq(global_node_page_state_snapshot(NR_FILE_DIRTY), 0);
	drop_pagecache();
	read_back("/mnt/f", 8 * MiB);
	assert_no_warning();
}

/* rmdir of the group the inode goes to: it ends with the nearest living ancestor (root). */
Test(sim_foreign, a_switch_racing_rmdir_of_the_new_group_ends_at_the_ancestor)
{
	sim_boot(&cfg);
	sim_mkcg("A");
	sim_mkcg("C");
	sim_write_range("A", "/mnt/f", 0, 4 * MiB);
	ksys_sync();
	struct inode *inode = file_inode_get("/mnt/f");

	down_write(&sim_bdi()->wb_switch_rwsem);
	inode_switch_wbs(inode, sim_memcg_id("C"));
	cr_assert_eq(do_rmdir("/sys/fs/cgroup/C"), 0);
	host_run_until_idle(); /* the dead group's cleanup pass finds no inode of its wb */
	cr_assert_eq(wb_switches_in_flight(), 1, "the switch ran before the group went");
	up_write(&sim_bdi()->wb_switch_rwsem);
	for (int i = 0; i < 100 && inode_to_wb(inode) != &sim_bdi()->wb; i++)
		host_run_for(100 * MSEC);
	cr_assert_eq(inode_to_wb(inode), &sim_bdi()->wb, "the inode stayed on a dead group's wb");
	cr_assert_eq(wb_switches_in_flight(), 0);
	host_run_for(SEC);
	cr_assert_eq(nr_cgwbs(), 1, "only A's wb should be left");
	iput(inode);
	sim_assert_counters("after the switches");
	assert_no_warning();
}

/*
 * Unmount and queued switches: cgroup_writeback_umount() (called by generic_shutdown_super
 * once SB_ACTIVE is clear) returns only when no switch is queued; an inode of a superblock
 * that is no longer active is never queued; umount with a switch queued leaves nothing
 * busy.
 */
Test(sim_foreign, umount_waits_for_queued_switches)
{
	sim_boot(&cfg);
	sim_mkcg("A");
	sim_mkcg("B");
	sim_write_range("A", "/mnt/f", 0, 1 * MiB);
	ksys_sync();
	struct inode *inode = file_inode_get("/mnt/f");
	struct super_block *sb = inode->i_sb;

	inode_switch_wbs(inode, sim_memcg_id("B"));
	cr_assert_eq(wb_switches_in_flight(), 1);
	cgroup_writeback_umount();
	cr_assert_eq(wb_switches_in_flight(), 0, "returned with a switch queued");
	cr_assert_eq(mem_cgroup_id(wb_memcg(inode_to_wb(inode))), sim_memcg_id("B"));

	sb->s_flags &= ~SB_ACTIVE;
	inode_switch_wbs(inode, sim_memcg_id("A"));
	cr_assert_eq(wb_switches_in_flight(), 0, "queued a switch on an inactive superblock");
	cr_assert(!(inode->i_state & I_WB_SWITCH));
	sb->s_flags |= SB_ACTIVE;

	inode_switch_wbs(inode, sim_memcg_id("A"));
	iput(inode); /* the queued switch holds its own reference */
	cr_assert_eq(wb_switches_in_flight(), 1);
	cr_assert_eq(do_umount("/mnt", 0), 0);
	cr_assert_eq(wb_switches_in_flight(), 0);
	cr_assert(!host_log_contains("busy inodes"), "%s", host_log());
	cr_assert(!host_log_contains("still cached"), "%s", host_log());
	/* and the file is intact */
	cr_assert_eq(do_mount("/dev/vda", "/mnt", "ext2", 0, NULL), 0);
	read_back("/mnt/f", 1 * MiB);
	assert_no_warning();
}

static struct memcg_cgwb_frn *frn_of(struct mem_cgroup *memcg, int memcg_id)
{
	for (int i = 0; i < MEMCG_CGWB_FRN_CNT; i++)
		if (memcg->cgwb_frn[i].memcg_id == memcg_id &&
		    memcg->cgwb_frn[i].bdi_id == sim_bdi()->id)
			return &memcg->cgwb_frn[i];
	return NULL;
}

static struct wb_writeback_work *only_work(struct bdi_writeback *wb)
{
	cr_assert(list_is_singular(&wb->work_list), "expected one queued work");
	return list_first_entry(&wb->work_list, struct wb_writeback_work, list);
}

/*
 * A dirties pages of B's inode: A's memcg records B's wb. A throttled task of A flushes it
 * once (budget 1.25 x B's dirty pages), not twice at a time, and not after 30 s.
 */
Test(sim_foreign, a_groups_foreign_records_make_the_owners_wb_write)
{
	sim_boot(&cfg);
	sim_mkcg("A");
	sim_mkcg("B");
	host_run_for(2 * SEC); /* jiffies well past 0 */
	sim_write_range("A", "/mnt/a", 0, 64 * 1024);
	sim_write_range("B", "/mnt/b", 0, 4 * MiB);
	sim_write_range("A", "/mnt/b", 4 * MiB, 2 * MiB);
	struct mem_cgroup *a = cg_memcg("A");
	struct bdi_writeback *a_wb = sim_file_wb("/mnt/a"), *b_wb = sim_file_wb("/mnt/b");
	struct memcg_cgwb_frn *frn = frn_of(a, sim_memcg_id("B"));

	cr_assert_not_null(frn, "A dirtied B's inode and has no record of it");
	cr_assert_leq(jiffies - frn->at, 10);
	cr_assert_null(frn_of(cg_memcg("B"), sim_memcg_id("A")), "B has no foreign pages");

	host_run_until_idle();
	cr_assert(list_empty(&b_wb->work_list));
	mem_cgroup_flush_foreign(a_wb);
	struct wb_writeback_work *work = only_work(b_wb);
	cr_assert_eq(work->reason, WB_REASON_FOREIGN_FLUSH);
	cr_assert_eq(work->nr_pages, memcg_pages("B", NR_FILE_DIRTY) * 10 / 8);
	cr_assert_geq(work->nr_pages, 1280, "B's 4 MiB (and metadata) + 25%%");
	cr_assert_eq(frn->at, 0);
	cr_assert_eq(frn->done.cnt, 1, "the record's flush is in flight");
	mem_cgroup_flush_foreign(a_wb);
	only_work(b_wb); /* not a second one */

	host_run_for(SEC);
	cr_assert_eq(frn->done.cnt, 0, "the flush completed");
	cr_assert_gt(sim_cg_value("B", "io.stat", "wbytes"), 0, "B's wb did not write");

	/* seen again, then stale: 30 s later nothing is flushed */
	host_run_for(2 * SEC);
	sim_write_range("A", "/mnt/b", 6 * MiB, 64 * 1024);
	cr_assert_leq(jiffies - frn->at, 10, "the record was not refreshed");
	host_run_for(31 * SEC);
	host_run_until_idle();
	mem_cgroup_flush_foreign(a_wb);
	cr_assert(list_empty(&b_wb->work_list), "a record older than 30 s was flushed");
	assert_no_warning();
}

/*
 * The same through balance_dirty_pages(): A, throttled while it rewrites B's file, flushes
 * its record of B's wb (the record is seen being flushed), and B's wb writes the pages.
 */
Test(sim_foreign, a_throttled_group_flushes_the_wbs_it_dirtied_for)
{
	sim_boot(&cfg);
	sim_mkcg("A");
	sim_mkcg("B");
	host_run_for(2 * SEC);
	sim_write_range("B", "/mnt/b", 0, 64 * 1024);
	ksys_sync();
	/* thresholds low enough that A is throttled: freerun ends at 6 MiB */
	cr_assert_eq(sim_echo("/proc/sys/vm/dirty_bytes", "8388608"), 0);
	cr_assert_eq(sim_echo("/proc/sys/vm/dirty_background_bytes", "4194304"), 0);
	struct mem_cgroup *a = cg_memcg("A");
	int b_id = sim_memcg_id("B");
	bool flushing = false;

	struct sim_writer *w = sim_writer_start("A", "/mnt/b", 64 * 1024, 32 * MiB, 32 * MiB, 2000);
	for (int i = 0; i < 20000 && !flushing && sim_writer_bytes(w) < 32 * MiB; i++) {
		struct memcg_cgwb_frn *frn = frn_of(a, b_id);

		flushing = frn && READ_ONCE(frn->done.cnt) > 0;
		host_run_for(MSEC);
	}
	cr_assert(flushing, "no flush of A's record of B's wb while A was throttled");
	sim_writers_stop();
	assert_no_warning();
}

/* Five foreign wbs: four records, the oldest gives way. */
Test(sim_foreign, a_memcg_keeps_four_foreign_records)
{
	static const char *const owners[] = { "B1", "B2", "B3", "B4", "B5" };
	char path[32];

	sim_boot(&cfg);
	sim_mkcg("A");
	host_run_for(2 * SEC);
	for (int i = 0; i < 5; i++) {
		sim_mkcg(owners[i]);
		snprintf(path, sizeof(path), "/mnt/%s", owners[i]);
		sim_write_range(owners[i], path, 0, 64 * 1024);
	}
	for (int i = 0; i < 5; i++) {
		snprintf(path, sizeof(path), "/mnt/%s", owners[i]);
		sim_write_range("A", path, 64 * 1024, 4096);
		host_run_for(10 * MSEC);
	}
	struct mem_cgroup *a = cg_memcg("A");
	cr_assert_null(frn_of(a, sim_memcg_id("B1")), "the oldest record should have given way");
	for (int i = 1; i < 5; i++)
		cr_assert_not_null(frn_of(a, sim_memcg_id(owners[i])), "no record of %s", owners[i]);
}

/*
 * The switch's grace period (fs/fs-writeback-switch.c): an updater on another CPU that
 * entered unlocked_inode_to_wb_begin() before I_WB_SWITCH was set updates the wb it read,
 * the old one, so phase 2 must not move the counts until its section ends. CPU 1 runs
 * clear_page_dirty_for_io()'s steps on a page of the file and stops between reading i_wb
 * and updating the counts, while CPU 0 switches the inode. host_set_cpu() holds no
 * read-side section across a change of CPU: CPU 1's parking (host_rcu_cpu_online) stands
 * for it. One fixed order; sim_smp (test_sim_smp.c) finds the race with tasks on two
 * virtual CPUs under seeds.
 */
Test(sim_foreign, a_switch_waits_for_an_updater_that_missed_the_flag)
{
	struct wb_lock_cookie cookie;

	sim_boot(&cfg);
	sim_mkcg("A");
	sim_mkcg("B");
	cr_assert_eq(sim_write_range("A", "/mnt/f", 0, 16 * PAGE_SIZE), (long)(16 * PAGE_SIZE));
	cr_assert_eq(sim_write_range("B", "/mnt/g", 0, PAGE_SIZE), (long)PAGE_SIZE);
	/*
	 * B's own page written: B's wb, with no completions yet, has a share of 0 and its
	 * flusher would take the page whenever it runs (Linux 6.1's wb_over_bg_thresh()).
	 */
	struct file *g = filp_open("/mnt/g", O_RDWR, 0);
	cr_assert(!IS_ERR(g));
	cr_assert_eq(vfs_fsync(g, 0), 0);
	fput(g);
	struct inode *inode = file_inode_get("/mnt/f");
	struct bdi_writeback *old_wb = inode_to_wb(inode), *new_wb = sim_file_wb("/mnt/g");
	s64 new_d = wb_stat_sum(new_wb, WB_RECLAIMABLE);
	cr_assert_eq(wb_stat_sum(old_wb, WB_RECLAIMABLE), 16);
	struct page *page = find_get_page(inode->i_mapping, 0);
	cr_assert_not_null(page);
	lock_page(page);
	long nr = (long)compound_nr(page); /* the write may have made one folio of them all */

	host_set_nr_cpus(2);
	host_rcu_cpu_online(1, true);
	host_set_cpu(1); /* clear_page_dirty_for_io() up to its read of i_wb */
	struct bdi_writeback *wb = unlocked_inode_to_wb_begin(inode, &cookie);
	cr_assert_not(cookie.locked);
	rcu_read_unlock();
	host_set_cpu(0);

	inode_switch_wbs(inode, sim_memcg_id("B"));
	host_run_for(100 * MSEC);
	cr_assert_eq(inode_to_wb(inode), old_wb, "the switch ran under CPU 1's section");

	host_set_cpu(1); /* the rest of its section: the counts leave the wb it read */
	rcu_read_lock();
	cr_assert(TestClearPageDirty(page));
	mod_page_state(page, NR_FILE_DIRTY, -nr);
	wb_stat_mod(wb, WB_RECLAIMABLE, -nr);
	unlocked_inode_to_wb_end(inode, &cookie);
	host_set_cpu(0);
	for (int i = 0; i < 10 && wb_switches_in_flight(); i++) {
		host_rcu_quiescent(1);
		host_run_for(10 * MSEC);
	}
	host_rcu_cpu_online(1, false);

	cr_assert_eq(inode_to_wb(inode), new_wb, "the switch did not run");
	cr_assert_eq(wb_stat_sum(old_wb, WB_RECLAIMABLE), 0,
		     "an update landed on the old wb after its counts moved");
	cr_assert_eq(wb_stat_sum(new_wb, WB_RECLAIMABLE), new_d + 16 - nr);
	sim_assert_counters("after the switch");
	set_page_dirty(page); /* the "IO" that cleaned it did not happen: dirty again, on B's wb */
	unlock_page(page);
	put_page(page);
	cr_assert_eq(wb_stat_sum(new_wb, WB_RECLAIMABLE), new_d + 16);
	sim_assert_counters("after redirtying");
	iput(inode);
	assert_no_warning();
}
