/*
 * Page-state counters of memory cgroups. Each memcg counts, locally, the pages charged to
 * it in each state (file, dirty, writeback, on which LRU list); they move together with
 * the node counters in mod_page_state(). Hierarchical figures (memory.stat, the memcg
 * dirty domain) are sums over the subtree, offline memcgs included, taken on demand: a
 * few dozen memcgs at most, and no counter to keep in step on the hot path.
 *
 * The dirty and writeback counts move at every page dirtied, sent and completed, on every
 * CPU: those are per-CPU counters, each CPU folding its part every MEMCG_STAT_BATCH pages.
 * Linux keeps all of a memcg's counts per CPU and flushes them for its readers (the dirty
 * domain, memory.stat, every two seconds); here every reader sums the parts: a read alone
 * would miss up to MEMCG_STAT_BATCH pages per CPU, and a small group's foreign flush would
 * be sized 0 or its reclaim see no writeback to wait for. The LRU and file counts change
 * under the LRU lock or the page cache's anyway, and reclaim sizes its scans on them to
 * the page (a memcg read as empty would be skipped): they stay exact atomics.
 */
#include "memcg.h"
#include <cgwb/mm.h>
#include <cgwb/irqflags.h>
#include <cgwb/string.h>

/* Linux's MEMCG_CHARGE_BATCH: its stats are flushed after this many updates per CPU. */
#define MEMCG_STAT_BATCH 64

static struct percpu_counter *memcg_pcpu_stat(struct mem_cgroup *memcg, enum node_stat_item item)
{
	if (item == NR_FILE_DIRTY)
		return &memcg->pcpu_stat[0];
	if (item == NR_WRITEBACK)
		return &memcg->pcpu_stat[1];
	return NULL;
}

int memcg_stat_init(struct mem_cgroup *memcg)
{
	return percpu_counter_init_many(memcg->pcpu_stat, 0, GFP_KERNEL,
					ARRAY_SIZE(memcg->pcpu_stat));
}

void memcg_stat_exit(struct mem_cgroup *memcg)
{
	percpu_counter_destroy_many(memcg->pcpu_stat, ARRAY_SIZE(memcg->pcpu_stat));
}

void mem_cgroup_mod_page_state(struct page *page, enum node_stat_item item, long delta)
{
	struct mem_cgroup *memcg = READ_ONCE(page->memcg);
	struct percpu_counter *pcpu;

	if (!memcg)
		return; /* not charged: a page on its way into or out of the cache */
	pcpu = memcg_pcpu_stat(memcg, item);
	if (pcpu)
		percpu_counter_add_batch(pcpu, delta, MEMCG_STAT_BATCH);
	else
		__atomic_add_fetch(&memcg->stat[item], delta, __ATOMIC_RELAXED);
}

/* Exact: the per-CPU counts summed. */
long memcg_page_state_local(struct mem_cgroup *memcg, enum node_stat_item item)
{
	struct percpu_counter *pcpu = memcg_pcpu_stat(memcg, item);

	return pcpu ? (long)percpu_counter_sum(pcpu) : READ_ONCE(memcg->stat[item]);
}

struct item_sum {
	enum node_stat_item item;
	long sum;
};

static void add_item(struct cgroup_subsys_state *css, void *arg)
{
	struct item_sum *s = arg;

	s->sum += memcg_page_state_local(mem_cgroup_from_css(css), s->item);
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
		sums->stat[i] += memcg_page_state_local(memcg, (enum node_stat_item)i);
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
	for (int i = 0; i < NR_VM_NODE_STAT_ITEMS; i++) {
		enum node_stat_item item = (enum node_stat_item)i;
		struct percpu_counter *pcpu = memcg_pcpu_stat(parent, item);
		long n = memcg_page_state_local(memcg, item);

		if (pcpu)
			percpu_counter_add_batch(pcpu, n, MEMCG_STAT_BATCH);
		else
			__atomic_add_fetch(&parent->stat[i], n, __ATOMIC_RELAXED);
	}
	__atomic_add_fetch(&parent->pgscan, READ_ONCE(memcg->pgscan), __ATOMIC_RELAXED);
	__atomic_add_fetch(&parent->pgsteal, READ_ONCE(memcg->pgsteal), __ATOMIC_RELAXED);
}
