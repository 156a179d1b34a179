/*
 * wb_domains (shared/spec/writeback.md 4.1, 4.6, 4.7): writeback completions counted per
 * wb in flexible proportions with a 3 s half-life, and a wb's share of a domain threshold.
 */
#include <cgwb/writeback.h>
#include <cgwb/backing-dev.h>
#include <cgwb/jiffies.h>
#include <cgwb/compiler.h>

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

/*
 * The period timer: declare the periods that passed (one per 3 s, more if the timer ran
 * late); stop when nothing is left to decay, the next completion restarts it.
 */
static void writeout_period(struct timer_list *t)
{
	struct wb_domain *dom = from_timer(dom, t, period_timer);
	int miss = (int)((jiffies - dom->period_time) / VM_COMPLETIONS_PERIOD_LEN);

	if (fprop_new_period(&dom->completions, miss + 1)) {
		dom->period_time += (unsigned long)(miss + 1) * VM_COMPLETIONS_PERIOD_LEN;
		if (!dom->period_time)
			dom->period_time = 1;
		mod_timer(&dom->period_timer, dom->period_time + VM_COMPLETIONS_PERIOD_LEN);
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

void wb_domain_writeout_add(struct wb_domain *dom, struct fprop_local *pl, unsigned long max_prop_frac,
			    long n)
{
	fprop_add_max(&dom->completions, pl, max_prop_frac, n);
	if (!READ_ONCE(dom->period_time)) {
		dom->period_time = jiffies ? jiffies : 1;
		mod_timer(&dom->period_timer, dom->period_time + VM_COMPLETIONS_PERIOD_LEN);
	}
}

/*
 * wb's part of a domain threshold (4.7): its share of recent completions, plus its bdi's
 * min_ratio, scaled by its bandwidth share among the bdi's wbs; at least an eighth of the
 * room left (so an idle wb is not blocked on its first writes), at most its max_ratio.
 */
static unsigned long __wb_calc_thresh(struct bdi_writeback *wb, struct wb_domain *dom,
				      struct fprop_local *pl, unsigned long thresh,
				      unsigned long dirty)
{
	struct backing_dev_info *bdi = wb->bdi;
	unsigned long num, den, wb_min = bdi->min_ratio, wb_max = bdi->max_ratio;
	u64 wb_thresh;

	fprop_fraction(&dom->completions, pl, &num, &den);
	if (wb->avg_write_bandwidth < bdi->tot_write_bandwidth) {
		unsigned long this_bw = wb->avg_write_bandwidth, tot_bw = bdi->tot_write_bandwidth;
		if (wb_min)
			wb_min = wb_min * this_bw / tot_bw;
		if (wb_max < 100)
			wb_max = wb_max * this_bw / tot_bw;
	}
	wb_thresh = (u64)thresh * num / den + (u64)thresh * wb_min / 100;
	if (thresh > dirty)
		wb_thresh = max(wb_thresh, (u64)(thresh - dirty) / 8);
	wb_thresh = min(wb_thresh, (u64)thresh * wb_max / 100);
	return (unsigned long)wb_thresh;
}

unsigned long wb_calc_thresh(struct bdi_writeback *wb, unsigned long thresh, unsigned long dirty)
{
	return __wb_calc_thresh(wb, &global_wb_domain, &wb->completions, thresh, dirty);
}
