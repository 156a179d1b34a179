/*
 * Pools of wbs for dirty-throttling policies (struct wb_pool, mm/dirty-policy.h): a policy
 * that bounds a set of wbs together keeps them in a pool, whose pages are one counter sum
 * away. The wb carries only the policy's hooks (policy_pages, policy_node, policy_mark in
 * struct bdi_writeback); everything else is here.
 */
#include <cgwb/backing-dev.h>
#include <cgwb/jiffies.h>
#include "dirty-policy.h"

/* The pool wb counts in (its policy_pages is a pool's counter), or NULL. */
static struct wb_pool *wb_pool_of(const struct bdi_writeback *wb)
{
	struct percpu_counter *held = READ_ONCE(wb->policy_pages);

	return held ? container_of(held, struct wb_pool, held) : NULL;
}

bool wb_in_pool(const struct bdi_writeback *wb, const struct wb_pool *pool)
{
	return wb_pool_of(wb) == pool;
}

/* Pools' member lists and every wb's policy_pages (taken with interrupts off: it nests sums' locks). */
static DEFINE_SPINLOCK(wb_pool_lock);

/* The pages wb holds: what it brings into a pool or takes out of one. */
static s64 wb_pool_pages(struct bdi_writeback *wb)
{
	return wb_stat_sum(wb, WB_RECLAIMABLE) + wb_stat_sum(wb, WB_WRITEBACK);
}

/*
 * The pointer changes before the wb's pages move: from then on its updates go to the new
 * pool (wb_stat_mod()). One that raced the move may be counted twice or not at all, a few
 * pages against a budget of thousands; a wb changes pools rarely (when io.max is set or
 * lifted, and at its end).
 */
void wb_pool_update(struct bdi_writeback *wb, struct wb_pool *pool)
{
	struct wb_pool *old;
	unsigned long flags;

	if (wb_pool_of(wb) == pool)
		return;
	spin_lock_irqsave(&wb_pool_lock, flags);
	old = wb_pool_of(wb);
	if (old != pool) {
		WRITE_ONCE(wb->policy_pages, pool ? &pool->held : NULL);
		smp_mb(); /* against wb_stat_mod(): its add, then its read of policy_pages */
		if (old) {
			if (wb->policy_mark == WB_POOL_NEW)
				old->nr_new--;
			list_del_init(&wb->policy_node);
			percpu_counter_add(&old->held, -wb_pool_pages(wb));
		}
		wb->policy_mark = WB_POOL_NEW;
		if (pool) {
			list_add_tail(&wb->policy_node, &pool->members);
			pool->nr_new++;
			percpu_counter_add(&pool->held, wb_pool_pages(wb));
		}
	}
	spin_unlock_irqrestore(&wb_pool_lock, flags);
}

bool wb_pool_shared(struct wb_pool *pool)
{
	unsigned long flags;
	bool shared;

	spin_lock_irqsave(&wb_pool_lock, flags);
	shared = !list_empty(&pool->members) && !list_is_singular(&pool->members);
	spin_unlock_irqrestore(&wb_pool_lock, flags);
	return shared;
}

/* Which members hold pages: sums, as a small member's every page may be parked on CPUs. */
static void wb_pool_count_holders(struct wb_pool *pool)
{
	struct bdi_writeback *m;

	pool->nr_holding = pool->nr_new = 0;
	list_for_each_entry(m, &pool->members, policy_node) {
		m->policy_mark = wb_pool_pages(m) ? WB_POOL_HELD : WB_POOL_EMPTY;
		pool->nr_holding += m->policy_mark == WB_POOL_HELD;
	}
	pool->counted_at = jiffies | 1;
}

/*
 * The pages are a sum, not a read: the budget is a share of the dirty threshold that the
 * pool counter's read error (every CPU's part) could be a good part of on many CPUs.
 */
void wb_pool_sum(struct wb_pool *pool, struct bdi_writeback *wb, unsigned long *pages,
		 unsigned long *nr)
{
	unsigned long flags;

	spin_lock_irqsave(&wb_pool_lock, flags);
	if (!pool->counted_at || time_after_eq(jiffies, pool->counted_at + WB_POOL_COUNT_INTERVAL))
		wb_pool_count_holders(pool);
	*nr = pool->nr_holding + pool->nr_new + (wb->policy_mark == WB_POOL_EMPTY);
	spin_unlock_irqrestore(&wb_pool_lock, flags);
	*pages = (unsigned long)percpu_counter_sum_positive(&pool->held);
}

void dirty_policy_wb_exit(struct bdi_writeback *wb)
{
	wb_pool_update(wb, NULL);
}
