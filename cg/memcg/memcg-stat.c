/*
 * Page-state counters of memory cgroups. Each memcg counts, locally, the pages charged to
 * it in each state (file, dirty, writeback, on which LRU list); they move together with
 * the node counters in mod_page_state(). Hierarchical figures (memory.stat, the memcg
 * dirty domain) are sums over the subtree, offline memcgs included, taken on demand: a
 * few dozen memcgs at most, and no counter to keep in step on the hot path.
 */
#include "memcg.h"
#include <cgwb/mm.h>
#include <cgwb/irqflags.h>
#include <cgwb/string.h>

void mem_cgroup_mod_page_state(struct page *page, enum node_stat_item item, long delta)
{
	struct mem_cgroup *memcg = READ_ONCE(page->memcg);

	if (!memcg)
		return; /* not charged: a page on its way into or out of the cache */
	__atomic_add_fetch(&memcg->stat[item], delta, __ATOMIC_RELAXED);
}

long memcg_page_state_local(struct mem_cgroup *memcg, enum node_stat_item item)
{
	return READ_ONCE(memcg->stat[item]);
}

struct item_sum {
	enum node_stat_item item;
	long sum;
};

static void add_item(struct cgroup_subsys_state *css, void *arg)
{
	struct item_sum *s = arg;

	s->sum += READ_ONCE(mem_cgroup_from_css(css)->stat[s->item]);
}

unsigned long memcg_page_state(struct mem_cgroup *memcg, enum node_stat_item item)
{
	struct item_sum s = { .item = item };

	css_for_each_descendant(&memcg->css, add_item, &s);
	return s.sum > 0 ? (unsigned long)s.sum : 0;
}

static void add_all(struct cgroup_subsys_state *css, void *arg)
{
	struct mem_cgroup *memcg = mem_cgroup_from_css(css);
	struct memcg_stat_sums *sums = arg;

	for (int i = 0; i < NR_VM_NODE_STAT_ITEMS; i++)
		sums->stat[i] += READ_ONCE(memcg->stat[i]);
	sums->pgscan += READ_ONCE(memcg->pgscan);
	sums->pgsteal += READ_ONCE(memcg->pgsteal);
}

void memcg_stat_sum(struct mem_cgroup *memcg, struct memcg_stat_sums *sums)
{
	memset(sums, 0, sizeof(*sums));
	css_for_each_descendant(&memcg->css, add_all, sums);
}

void memcg_stat_fold(struct mem_cgroup *memcg, struct mem_cgroup *parent)
{
	for (int i = 0; i < NR_VM_NODE_STAT_ITEMS; i++)
		__atomic_add_fetch(&parent->stat[i], READ_ONCE(memcg->stat[i]), __ATOMIC_RELAXED);
	__atomic_add_fetch(&parent->pgscan, READ_ONCE(memcg->pgscan), __ATOMIC_RELAXED);
	__atomic_add_fetch(&parent->pgsteal, READ_ONCE(memcg->pgsteal), __ATOMIC_RELAXED);
}
