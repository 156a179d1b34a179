/*
 * Charging page-cache pages to memory cgroups.
 *
 * A new page-cache page is charged to the memcg of the task that brings it in (Linux's
 * first-use rule: whoever reads or writes it later, it stays charged there until it leaves
 * the cache). The charge goes up the page counters, so a group never takes an ancestor
 * past its memory.max either. The root is charged too (no limit): its usage is the whole
 * page cache, which makes conservation easy to check.
 *
 * At memory.max the charge does not fail (a page-cache page has no other place to go):
 * the group at its limit reclaims, or waits for its writeback (memcg-reclaim.c), and tries
 * again. If nothing at all can be freed (MAX_RECLAIM_RETRIES rounds with nothing to wait
 * for, or writeback stalled), the group is out of memory: the event is counted and the
 * OOM killer kills the charging task (memcg-oom.c), whose charge then goes through so
 * that it dies quickly, as Linux lets a dying task pass. If it may not be killed (a kernel
 * thread, the console shell) the page is charged past the limit with a log line, rather
 * than hanging. Only a caller that cannot wait (GFP_NOWAIT) gets -ENOMEM.
 */
#include "memcg.h"
#include <cgwb/mm.h>
#include <cgwb/vmscan.h>
#include <cgwb/sched.h>
#include <cgwb/printk.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>

static void memcg_oom(struct mem_cgroup *memcg, gfp_t gfp)
{
	static bool warned;
	char path[64];

	memcg_memory_event(memcg, MEMCG_OOM);
	if (mem_cgroup_out_of_memory(memcg, gfp) || warned)
		return;
	warned = true;
	cgroup_path(memcg->css.cgroup, path, sizeof(path));
	pr_warn("memcg: %s: nothing left to reclaim below memory.max and %s may not be killed; "
		"charging past it\n",
		path, current->comm);
}

/* Make room for nr pages below over's max (false), or decide to charge past it (true). */
static bool must_force(struct mem_cgroup *over, unsigned long nr, gfp_t gfp, struct memcg_reclaim *r)
{
	if (!gfpflags_allow_blocking(gfp))
		return true; /* __GFP_NOFAIL that cannot wait */
	if (fatal_signal_pending(current))
		return true; /* let a killed task finish quickly */
	if (current_in_reclaim())
		return true; /* a page read by reclaim itself: waiting would stall all reclaim */
	if (memcg_reclaim_round(over, nr, gfp, r))
		return false;
	/* only dirty pages left, and a caller under fs locks: not out of memory, just early */
	if (!(gfp & __GFP_FS) && memcg_writeback_pending(over))
		return true;
	memcg_oom(over, gfp);
	return true;
}

static int try_charge(struct mem_cgroup *memcg, gfp_t gfp, unsigned long nr)
{
	struct page_counter *fail;
	struct memcg_reclaim r;

	memcg_keep_reserve(memcg, gfp);
	memcg_reclaim_init(&r);
	while (!page_counter_try_charge(&memcg->memory, nr, &fail)) {
		struct mem_cgroup *over = container_of(fail, struct mem_cgroup, memory);

		memcg_memory_event(over, MEMCG_MAX);
		if (!gfpflags_allow_blocking(gfp) && !(gfp & __GFP_NOFAIL))
			return -ENOMEM;
		if (must_force(over, nr, gfp, &r)) {
			page_counter_charge(&memcg->memory, nr);
			break;
		}
	}
	return 0;
}

int mem_cgroup_charge(struct page *page, gfp_t gfp)
{
	struct mem_cgroup *memcg = get_mem_cgroup_from_current();
	int err;

	BUG_ON(page->memcg || PageTail(page));
	err = try_charge(memcg, gfp, compound_nr(page)); /* a folio is charged whole */
	if (err) {
		css_put(&memcg->css);
		return err;
	}
	WRITE_ONCE(page->memcg, memcg); /* the reference goes with the page */
	memcg_reclaim_high(memcg, gfp);
	return 0;
}

void mem_cgroup_split_folio(struct page *head, unsigned long nr)
{
	struct mem_cgroup *memcg = READ_ONCE(head->memcg);

	for (unsigned long i = 1; i < nr; i++) {
		if (memcg)
			css_get(&memcg->css); /* each page's uncharge puts one */
		WRITE_ONCE(head[i].memcg, memcg);
	}
}

void mem_cgroup_uncharge(struct page *page)
{
	struct mem_cgroup *memcg = READ_ONCE(page->memcg);

	if (!memcg)
		return;
	WRITE_ONCE(page->memcg, NULL);
	page_counter_uncharge(&memcg->memory, compound_nr(page));
	css_put(&memcg->css);
}
