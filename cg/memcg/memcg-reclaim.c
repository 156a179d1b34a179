/*
 * Keeping memory cgroups within their limits: reclaim rounds for a charge at memory.max,
 * the small reserve kept free below it, trimming to memory.high, and reclaiming down to a
 * limit that was just lowered.
 *
 * A round reclaims the group's clean pages (its own lists and its descendants'); with none
 * clean, it waits for writeback (reclaim has woken the flushers) and tries again, as long
 * as writeback frees something at least every MEMCG_STALL_MS. A charge without __GFP_FS
 * never waits: it is made under filesystem locks (an indirect block or bitmap read while
 * allocating blocks for a write) that the flushers may need to clean this very group.
 * Those charges find room in the reserve that charges able to wait keep free: a group
 * writing through its limit stays MEMCG_NOFS_RESERVE pages below it, and memory.events
 * "max" counts each time a charge found it there and had to reclaim.
 */
#include "memcg.h"
#include <cgwb/psi.h>
#include <cgwb/mm.h>
#include <cgwb/vmscan.h>
#include <cgwb/sched.h>

#define MEMCG_RECLAIM_MIN 32U      /* pages per reclaim round (Linux's SWAP_CLUSTER_MAX) */
#define MAX_RECLAIM_RETRIES 16     /* rounds that free nothing, with nothing to wait for */
#define MEMCG_WRITEBACK_WAIT_MS 10 /* one wait for writeback to clean pages */
#define MEMCG_STALL_MS 5000        /* writeback pending but no page freed this long */
#define MEMCG_NOFS_RESERVE 16U     /* pages kept free for charges that cannot wait */

void memcg_reclaim_init(struct memcg_reclaim *r)
{
	r->retries = MAX_RECLAIM_RETRIES;
	r->progress = jiffies;
}

bool memcg_writeback_pending(struct mem_cgroup *memcg)
{
	return memcg_page_state(memcg, NR_FILE_DIRTY) + memcg_page_state(memcg, NR_WRITEBACK);
}

/* Wait for writeback to clean pages at memory.max: a memory stall, as Linux counts it. */
static void memcg_writeback_wait(void)
{
	unsigned long pflags;

	psi_memstall_enter(&pflags);
	msleep(MEMCG_WRITEBACK_WAIT_MS);
	psi_memstall_leave(&pflags);
}

static bool stalled(const struct memcg_reclaim *r)
{
	return !time_before(jiffies, r->progress + msecs_to_jiffies(MEMCG_STALL_MS));
}

static unsigned long reclaim_some(struct mem_cgroup *memcg, unsigned long nr, gfp_t gfp)
{
	return try_to_free_mem_cgroup_pages(memcg, max_t(unsigned long, nr, MEMCG_RECLAIM_MIN), gfp);
}

bool memcg_reclaim_round(struct mem_cgroup *memcg, unsigned long nr, gfp_t gfp,
			 struct memcg_reclaim *r)
{
	if (reclaim_some(memcg, nr, gfp)) {
		memcg_reclaim_init(r);
		return true;
	}
	if (memcg_writeback_pending(memcg)) {
		if (!(gfp & __GFP_FS) || stalled(r))
			return false;
		memcg_writeback_wait();
		return true;
	}
	return r->retries-- > 0;
}

/* memcg or the ancestor with the least room below its max, if that is under the reserve. */
static struct mem_cgroup *short_of_reserve(struct mem_cgroup *memcg)
{
	struct mem_cgroup *tightest = NULL;
	unsigned long least = ~0UL;

	for (; memcg; memcg = parent_mem_cgroup(memcg)) {
		unsigned long usage = page_counter_read(&memcg->memory);
		unsigned long max = READ_ONCE(memcg->memory.max);
		unsigned long room = usage < max ? max - usage : 0;

		/* a tiny limit keeps a proportionate reserve */
		if (room < min_t(unsigned long, MEMCG_NOFS_RESERVE, max / 8) && room < least) {
			least = room;
			tightest = memcg;
		}
	}
	return tightest;
}

void memcg_keep_reserve(struct mem_cgroup *memcg, gfp_t gfp)
{
	struct memcg_reclaim r;
	struct mem_cgroup *tight;

	if (!(gfp & __GFP_FS) || current_in_reclaim())
		return;
	memcg_reclaim_init(&r);
	while ((tight = short_of_reserve(memcg)) && !fatal_signal_pending(current)) {
		/* the group is at its limit (the reserve is part of it): counted as such */
		memcg_memory_event(tight, MEMCG_MAX);
		if (reclaim_some(tight, MEMCG_NOFS_RESERVE, gfp)) {
			memcg_reclaim_init(&r);
			continue;
		}
		/* nothing will come free: the charge itself deals with the limit */
		if (!memcg_writeback_pending(tight) || stalled(&r))
			return;
		memcg_writeback_wait();
	}
}

void memcg_reclaim_high(struct mem_cgroup *memcg, gfp_t gfp)
{
	if (!gfpflags_allow_blocking(gfp))
		return;
	for (; memcg; memcg = parent_mem_cgroup(memcg)) {
		unsigned long usage = page_counter_read(&memcg->memory);
		unsigned long high = READ_ONCE(memcg->memory.high);

		if (usage <= high)
			continue;
		memcg_memory_event(memcg, MEMCG_HIGH);
		reclaim_some(memcg, usage - high, gfp);
	}
}

/* Reclaim until the usage is at most *limit (re-read: another write may change it). */
static void reclaim_to(struct mem_cgroup *memcg, const unsigned long *limit)
{
	struct memcg_reclaim r;

	memcg_reclaim_init(&r);
	for (;;) {
		unsigned long usage = page_counter_read(&memcg->memory);
		unsigned long target = READ_ONCE(*limit);

		if (usage <= target || signal_pending(current))
			return;
		if (!memcg_reclaim_round(memcg, usage - target, GFP_KERNEL, &r)) {
			memcg_memory_event(memcg, MEMCG_MAX);
			return;
		}
	}
}

void memcg_set_max(struct mem_cgroup *memcg, unsigned long nr_pages)
{
	page_counter_set_max(&memcg->memory, nr_pages);
	reclaim_to(memcg, &memcg->memory.max);
	mem_cgroup_limits_changed(memcg);
}

void memcg_set_high(struct mem_cgroup *memcg, unsigned long nr_pages)
{
	page_counter_set_high(&memcg->memory, nr_pages);
	reclaim_to(memcg, &memcg->memory.high);
	mem_cgroup_limits_changed(memcg);
}
