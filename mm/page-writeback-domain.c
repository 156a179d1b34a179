/*
 * wb_domains: writeback completions counted per wb in flexible proportions with a 3 s
 * half-life, and the domain's smoothed hard limit.
 *
 * The global domain is static and lives for ever. A memcg domain is embedded in its
 * mem_cgroup (cgwb_domain) and lives as long as it: every wb of the memcg holds a css
 * reference, so no completion can be added to a freed domain; wb_domain_exit() stops the
 * period timer when the memcg is freed.
 */
#include <cgwb/writeback.h>
#include <cgwb/backing-dev.h>
#include <cgwb/memcontrol.h>
#include <cgwb/jiffies.h>
#include <cgwb/compiler.h>
#include "internal.h"

#define VM_COMPLETIONS_PERIOD_LEN (3 * HZ)

static void writeout_period(struct timer_list *t);

/* Static, so completions can be counted before (and without) backing_dev_init. */
struct wb_domain global_wb_domain = {
	.lock = __SPIN_LOCK_UNLOCKED(global_wb_domain.lock),
	.completions = { .events = 1, .period = 0 },
	.period_timer = {
		.entry = LIST_HEAD_INIT(global_wb_domain.period_timer.entry),
		.function = writeout_period,
	},
};

/* The end of the period that starts at cur; never 0, which means "timer idle". */
static unsigned long wp_next_time(unsigned long cur)
{
	cur += VM_COMPLETIONS_PERIOD_LEN;
	return cur ? cur : 1;
}

/*
 * The period timer, at dom->period_time (the end of the current period): declare that
 * period and any the timer missed; stop when nothing is left to decay, the next completion
 * restarts it.
 */
static void writeout_period(struct timer_list *t)
{
	struct wb_domain *dom = from_timer(dom, t, period_timer);
	int miss = (int)((jiffies - dom->period_time) / VM_COMPLETIONS_PERIOD_LEN);

	if (fprop_new_period(&dom->completions, miss + 1)) {
		dom->period_time = wp_next_time(dom->period_time +
						(unsigned long)miss * VM_COMPLETIONS_PERIOD_LEN);
		mod_timer(&dom->period_timer, dom->period_time);
	} else {
		dom->period_time = 0;
	}
}

void wb_domain_init(struct wb_domain *dom)
{
	spin_lock_init(&dom->lock);
	dom->lock.name = "wb_domain";
	fprop_global_init(&dom->completions);
	timer_setup(&dom->period_timer, writeout_period, 0);
	dom->period_time = 0;
	dom->dirty_limit = 0;
	dom->dirty_limit_tstamp = jiffies;
}

void wb_domain_exit(struct wb_domain *dom)
{
	del_timer_sync(&dom->period_timer);
}

void wb_domain_writeout_add(struct wb_domain *dom, struct fprop_local *pl,
			    unsigned long max_prop_frac, long n)
{
	fprop_add_max(&dom->completions, pl, max_prop_frac, n);
	if (!READ_ONCE(dom->period_time)) {
		dom->period_time = wp_next_time(jiffies);
		mod_timer(&dom->period_timer, dom->period_time);
	}
}

/*
 * memory.max or memory.high changed: a limit smoothed from the old size could let dirty
 * pages overshoot a shrunken group, so it restarts from the domain's thresh.
 */
void wb_domain_size_changed(struct wb_domain *dom)
{
	unsigned long flags;

	spin_lock_irqsave(&dom->lock, flags);
	dom->dirty_limit_tstamp = jiffies;
	dom->dirty_limit = 0;
	spin_unlock_irqrestore(&dom->lock, flags);
}

unsigned long hard_dirty_limit(struct wb_domain *dom, unsigned long thresh)
{
	return max(thresh, READ_ONCE(dom->dirty_limit));
}

/*
 * Up to thresh at once; down toward max(thresh, dirty) by 1/32 of the gap (the gap halves
 * in about 4.4 s at one step per 200 ms), so that a sudden drop of thresh, e.g. a burst of
 * other allocations, does not stop every dirtier at once.
 */
static void update_dirty_limit(struct dirty_throttle_control *dtc)
{
	struct wb_domain *dom = dtc->dom;
	unsigned long thresh = dtc->thresh;
	unsigned long limit = dom->dirty_limit;

	if (limit < thresh) {
		dom->dirty_limit = thresh;
		return;
	}
	thresh = max(thresh, dtc->dirty);
	if (limit > thresh)
		dom->dirty_limit = limit - ((limit - thresh) >> 5);
}

void domain_update_dirty_limit(struct dirty_throttle_control *dtc, unsigned long now)
{
	struct wb_domain *dom = dtc->dom;
	unsigned long flags;

	if (time_before(now, READ_ONCE(dom->dirty_limit_tstamp) + BANDWIDTH_INTERVAL))
		return;
	spin_lock_irqsave(&dom->lock, flags);
	if (time_after_eq(now, dom->dirty_limit_tstamp + BANDWIDTH_INTERVAL)) {
		update_dirty_limit(dtc);
		dom->dirty_limit_tstamp = now;
	}
	spin_unlock_irqrestore(&dom->lock, flags);
}

/* Writeback completion of n pages: the wb's history and its share in both its domains. */
void __wb_writeout_add(struct bdi_writeback *wb, long n)
{
	struct wb_domain *cgdom = mem_cgroup_wb_domain(wb);

	wb_stat_mod(wb, WB_WRITTEN, n);
	wb_domain_writeout_add(&global_wb_domain, &wb->completions, wb->bdi->max_prop_frac, n);
	if (cgdom)
		wb_domain_writeout_add(cgdom, &wb->memcg_completions, wb->bdi->max_prop_frac, n);
}
