/*
 * The writeback stack on two virtual CPUs (host_smp_start()), each scenario under many
 * seeds (host_smp_seeds()): races that a fixed interleaving would have to be written for
 * are found by the seeded ones. A failing seed is printed as SIM_SEED=S and replays alone
 * with SIM_SEED=S in the environment.
 *
 * The inode switch's grace period (fs/fs-writeback-switch.c): a task on CPU 1 clears and
 * redirties the pages of a file (clear_page_dirty_for_io(), whose count update runs inside
 * unlocked_inode_to_wb_begin/end) while a task on CPU 0 switches the file between two
 * groups' wbs. Without the grace period, phase 2 can move the counts while CPU 1 is between
 * reading i_wb and updating the wb it read: the update lands on the old wb, which ends
 * with a count its pages do not have.
 */
#include <criterion/criterion.h>
#include <cgwb/fs.h>
#include <cgwb/backing-dev.h>
#include <cgwb/pagemap.h>
#include <cgwb/writeback.h>
#include <cgwb/sched.h>
#include <cgwb/bug.h>
#include "../../../fs/internal.h"
#include "host.h"
#include "sim.h"

#define NR_SEEDS 200
#define FILE_PAGES 8
#define SWITCHES 40

static const struct sim_config cfg = {
	.mem_mib = 64,
	.disk_mib = 32,
	.disk_bps = 32 * MiB,
	.disk_latency_ns = 50 * NSEC_PER_USEC,
};

static struct inode *inode;
static struct page *pages[FILE_PAGES], *g_page;
static int memcg_a, memcg_b;
static bool switcher_done;

/*
 * Writeback of a page that takes no time, then a write that dirties it again: the counts
 * leave (clear_page_dirty_for_io(), the unlocked update), pass through WB_WRITEBACK and
 * come back. The writeback step clears the DIRTY tag before the page is dirtied again: a
 * page still tagged would be counted by phase 2 in the moment set_page_dirty() has set
 * PG_dirty but not yet accounted it (under the i_pages lock), twice then, a race of its own.
 */
static int dirtier(void *unused)
{
	while (!READ_ONCE(switcher_done)) {
		for (int i = 0; i < FILE_PAGES; i++) {
			lock_page(pages[i]);
			if (clear_page_dirty_for_io(pages[i])) {
				set_page_writeback(pages[i]);
				end_page_writeback(pages[i]);
				set_page_dirty(pages[i]);
			}
			unlock_page(pages[i]);
			yield(); /* no tick here: a worker woken onto this CPU runs */
		}
	}
	return 0;
}

static int switcher(void *unused)
{
	for (int i = 0; i < SWITCHES; i++) {
		inode_switch_wbs(inode, i % 2 ? memcg_a : memcg_b);
		while (wb_switches_in_flight())
			yield();
	}
	WRITE_ONCE(switcher_done, true);
	return 0;
}

static long dirty_pages(void)
{
	long n = 0;

	for (int i = 0; i < FILE_PAGES; i++)
		n += PageDirty(pages[i]);
	return n;
}

/* Each wb holds the dirty pages of its own inodes, no more, no fewer. */
static void check_counts(struct bdi_writeback *wb_a, struct bdi_writeback *wb_b)
{
	struct bdi_writeback *wb_f = inode_to_wb(inode);
	long f = dirty_pages(), g = PageDirty(g_page);
	long want_a = wb_f == wb_a ? f : 0, want_b = g + (wb_f == wb_b ? f : 0);
	s64 a = wb_stat_sum(wb_a, WB_RECLAIMABLE), b = wb_stat_sum(wb_b, WB_RECLAIMABLE);

	BUG_ON(wb_f != wb_a && wb_f != wb_b);
	if (wb_stat_sum(wb_a, WB_WRITEBACK) || wb_stat_sum(wb_b, WB_WRITEBACK))
		panic("writeback counts left behind");
	if (a != want_a || b != want_b)
		panic("wb counts: A %lld (its pages: %ld), B %lld (its pages: %ld): an update "
		      "landed on a wb the inode had left",
		      (long long)a, want_a, (long long)b, want_b);
}

static void switch_race(u64 seed)
{
	struct task_struct *d, *s;

	sim_boot(&cfg);
	sim_mkcg("A");
	sim_mkcg("B");
	BUG_ON(sim_write_range("A", "/mnt/f", 0, FILE_PAGES * PAGE_SIZE) !=
	       (long)(FILE_PAGES * PAGE_SIZE));
	BUG_ON(sim_write_range("B", "/mnt/g", 0, PAGE_SIZE) != (long)PAGE_SIZE);
	inode = sim_inode("/mnt/f");
	for (int i = 0; i < FILE_PAGES; i++)
		BUG_ON(!(pages[i] = find_get_page(inode->i_mapping, i)));
	struct inode *g = sim_inode("/mnt/g");

	BUG_ON(!(g_page = find_get_page(g->i_mapping, 0)));
	memcg_a = sim_memcg_id("A");
	memcg_b = sim_memcg_id("B");
	struct bdi_writeback *wb_a = inode_to_wb(inode), *wb_b = sim_file_wb("/mnt/g");

	host_smp_start(2, seed);
	s = sim_kthread_on(0, switcher, NULL, "switcher");
	d = sim_kthread_on(1, dirtier, NULL, "dirtier");
	BUG_ON(kthread_join(s));
	BUG_ON(kthread_join(d));
	host_run_for(100 * MSEC); /* the last switch's grace period and phase 2 */
	BUG_ON(wb_switches_in_flight());
	check_counts(wb_a, wb_b);
	for (int i = 0; i < FILE_PAGES; i++)
		put_page(pages[i]);
	put_page(g_page);
	iput(g);
	iput(inode);
	sim_shutdown();
}

Test(sim_smp, a_switch_waits_for_updaters_on_another_cpu, .timeout = 600)
{
	cr_assert_eq(host_smp_seeds(NR_SEEDS, switch_race), 0);
}
