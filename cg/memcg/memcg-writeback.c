/*
 * What cgroup writeback's dirty throttling needs from the memory controller: the memcg
 * domain of a wb, and that domain's inputs (Linux's mem_cgroup_wb_domain and
 * mem_cgroup_wb_stats in mm/memcontrol.c).
 *
 * The domain is the wb's memcg's own: memcg domains are not nested, ancestors act through
 * the hierarchical counters and the headroom. The wb holds a css reference on its memcg,
 * so the domain outlives every wb that counts completions in it.
 */
#include "memcg.h"
#include <cgwb/backing-dev.h>
#include <cgwb/compiler.h>

struct wb_domain *mem_cgroup_wb_domain(struct bdi_writeback *wb)
{
	struct mem_cgroup *memcg = wb_memcg(wb);

	if (mem_cgroup_is_root(memcg))
		return NULL;
	return &memcg->cgwb_domain;
}

/*
 * The room left before the memcg or an ancestor below the root reaches the lower of its
 * memory.max and memory.high: how much more page cache the group could still hold.
 */
static unsigned long memcg_headroom(struct mem_cgroup *memcg)
{
	unsigned long headroom = PAGE_COUNTER_MAX;
	struct mem_cgroup *parent;

	while ((parent = parent_mem_cgroup(memcg)) != NULL) {
		unsigned long ceiling =
			min(READ_ONCE(memcg->memory.max), READ_ONCE(memcg->memory.high));
		unsigned long used = page_counter_read(&memcg->memory);

		headroom = min(headroom, ceiling - min(ceiling, used));
		memcg = parent;
	}
	return headroom;
}

void mem_cgroup_wb_stats(struct bdi_writeback *wb, unsigned long *pfilepages,
			 unsigned long *pheadroom, unsigned long *pdirty, unsigned long *pwriteback)
{
	struct mem_cgroup *memcg = wb_memcg(wb);
	struct memcg_stat_sums sums;

	memcg_stat_sum(memcg, &sums); /* one walk of the subtree for all four */
	*pdirty = (unsigned long)max(sums.stat[NR_FILE_DIRTY], 0L);
	*pwriteback = (unsigned long)max(sums.stat[NR_WRITEBACK], 0L);
	*pfilepages = (unsigned long)max(sums.stat[NR_INACTIVE_FILE] + sums.stat[NR_ACTIVE_FILE], 0L);
	*pheadroom = memcg_headroom(memcg);
}
