/*
 * io.cost's period (Linux's ioc_timer_fn()): once per period while some group is active,
 * the controller looks back at what happened and sets up the next period.
 *
 * - Idle groups (no IO for a whole period, nothing waiting, no debt, no delay) are deactivated:
 *   their weight leaves the sums and the active groups' shares grow.
 * - Donation (simplified, see docs/iocost.md): a group that did not run short and used
 *   less than its share lowers its inuse weight so that its share in use is its usage
 *   x 5/4 + 2 %; the others' hweight_inuse grows by as much. It takes the weight back the
 *   moment it runs short (blk-iocost.c). Linux 5.10+ computes the donations of the whole
 *   tree at once; this is the rule Linux had before.
 * - Credit is not banked: a group's cursor never lags the disk's vtime by more than
 *   margins.target, unless it is waiting: a low-weight group's one large bio may cost it
 *   more vtime than that, and it must be able to save up for it.
 * - vrate: the device is busy if requests waited for a slot more than 5 % of the period or
 *   completions missed the QoS latency targets more often than the percentile allows;
 *   then vrate goes down, the more so the longer it lasts. If the targets were met with
 *   room to spare while groups ran short of budget, the device has capacity left and
 *   vrate goes up. Between the two it coasts. It stays within io.cost.qos's min and max.
 *
 * Races: runs under ioc->lock like everything that touches the groups.
 */
#include "blk-cgroup.h"
#include <cgwb/blkdev.h>

static const u32 vrate_adj_pct[] = { 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
				     1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
				     4, 4, 4, 4, 4, 4, 4, 4, 8, 8, 8, 8, 8, 8, 8, 8, 16 };

/* This period's latency misses per direction (ppm) and the share of it spent on rq waits. */
static void ioc_lat_stat(struct ioc *ioc, u32 *missed_ppm, u32 *rq_wait_pct)
{
	struct request_queue *q = ioc->disk->queue;
	u64 rq_wait_ns = READ_ONCE(q->rq_wait_ns);

	for (int rw = 0; rw < 2; rw++) {
		u32 nr = ioc->nr_met[rw] + ioc->nr_missed[rw];

		missed_ppm[rw] = nr ? (u32)((u64)ioc->nr_missed[rw] * MILLION / nr) : 0;
		ioc->nr_met[rw] = ioc->nr_missed[rw] = 0;
	}
	*rq_wait_pct = (u32)min_t(
		u64, (rq_wait_ns - ioc->rq_wait_ns) * 100 / ((u64)ioc->period_us * NSEC_PER_USEC),
		100);
	ioc->rq_wait_ns = rq_wait_ns;
}

void iocg_deactivate(struct ioc_gq *iocg)
{
	propagate_weights(iocg, 0, 0);
	list_del_init(&iocg->active_list);
}

/*
 * Lower inuse so that the group's share in use comes down to what it used, with a margin,
 * when that is clearly below its share: inuse scales by target / hweight_inuse, which
 * converges in a few periods as the others' sums move (Linux before 5.10).
 */
static void iocg_donate(struct ioc_gq *iocg, u64 period_vtime)
{
	u32 hwa, hwi, usage, new_hwi, inuse;

	if (iocg->abs_vdebt)
		return; /* debt handling owns a debtor's inuse */
	current_hweight(iocg, &hwa, &hwi);
	usage = (u32)min_t(u64, iocg->usage_vtime * WEIGHT_ONE / period_vtime, WEIGHT_ONE);
	new_hwi = (u32)min_t(u64, (u64)usage * SURPLUS_SCALE_PCT / 100 + SURPLUS_SCALE_ABS,
			     WEIGHT_ONE);
	if (new_hwi + SURPLUS_MIN_ADJ_DELTA >= hwa) {
		if (iocg->inuse != iocg->active)
			propagate_weights(iocg, iocg->active, iocg->active);
		return;
	}
	inuse = (u32)clamp((u64)iocg->inuse * new_hwi / hwi, (u64)1, (u64)iocg->active);
	propagate_weights(iocg, iocg->active, inuse);
}

/*
 * Idle, as Linux's iocg_is_idle(): nothing issued this period and nothing in flight (an
 * IO that takes longer than a period keeps its group active).
 */
static bool iocg_is_idle(const struct ioc_gq *iocg)
{
	return iocg->active_period < iocg->ioc->cur_period && !iocg->usage_vtime &&
	       __atomic_load_n(&iocg->done_vtime, __ATOMIC_RELAXED) == iocg->vtime;
}

/* Look at each active group: returns how many ran short of budget this period. */
static int ioc_check_iocgs(struct ioc *ioc, struct ioc_now *now, u64 period_vtime)
{
	struct ioc_gq *iocg, *tmp;
	int nr_shortages = 0;

	list_for_each_entry_safe(iocg, tmp, &ioc->active_iocgs, active_list) {
		bool busy = !list_empty(&iocg->waiters) || iocg->abs_vdebt;

		/* a delay decays through these kicks, as Linux's: it keeps the group active */
		if (busy || iocg->delay)
			iocg_kick_waitq(iocg, now);
		else if (iocg_is_idle(iocg)) {
			iocg_deactivate(iocg);
			continue;
		}
		iocg->stat.usage_us += iocg->usage_vtime / VTIME_PER_USEC;
		if (iocg->short_of_budget || busy) {
			nr_shortages++;
			if (iocg->inuse != iocg->active && !iocg->abs_vdebt)
				propagate_weights(iocg, iocg->active, iocg->active);
		} else {
			iocg_donate(iocg, period_vtime);
		}
		/* unused credit is not banked; a group that waits saves up for its next bio */
		if (!busy && (s64)(now->vnow - iocg->vtime) > ioc->margins.target)
			iocg_wind_vtime(iocg, now->vnow - iocg->vtime - (u64)ioc->margins.target);
		iocg->usage_vtime = 0;
		iocg->short_of_budget = false;
	}
	return nr_shortages;
}

static void ioc_adjust_base_vrate(struct ioc *ioc)
{
	u64 vrate = ioc->vtime_base_rate;

	if (ioc->busy_level == 0)
		return;
	if (vrate < ioc->vrate_min) {
		vrate = min(vrate * (100 + VRATE_CLAMP_ADJ_PCT) / 100, ioc->vrate_min);
	} else if (vrate > ioc->vrate_max) {
		vrate = max(vrate * (100 - VRATE_CLAMP_ADJ_PCT) / 100, ioc->vrate_max);
	} else {
		int level = ioc->busy_level > 0 ? ioc->busy_level : -ioc->busy_level;
		u32 idx = (u32)min_t(int, level, (int)ARRAY_SIZE(vrate_adj_pct) - 1);
		u32 adj = ioc->busy_level > 0 ? 100 - vrate_adj_pct[idx] : 100 + vrate_adj_pct[idx];

		vrate = clamp(DIV_ROUND_UP(vrate * adj, 100), ioc->vrate_min, ioc->vrate_max);
	}
	ioc->vtime_base_rate = max_t(u64, vrate, VRATE_MIN);
	ioc_refresh_margins(ioc);
}

/* Busy, unbusy or in between, from the period's latencies, rq waits and shortages. */
static void ioc_update_busy_level(struct ioc *ioc, int nr_shortages)
{
	u32 missed_ppm[2], rq_wait_pct;
	u32 ppm_rthr = MILLION - ioc->params.qos[QOS_RPPM];
	u32 ppm_wthr = MILLION - ioc->params.qos[QOS_WPPM];

	ioc_lat_stat(ioc, missed_ppm, &rq_wait_pct);
	if (rq_wait_pct > RQ_WAIT_BUSY_PCT || missed_ppm[0] > ppm_rthr || missed_ppm[1] > ppm_wthr) {
		ioc->busy_level = max(ioc->busy_level, 0) + 1;
	} else if (rq_wait_pct <= RQ_WAIT_BUSY_PCT * UNBUSY_THR_PCT / 100 &&
		   missed_ppm[0] <= ppm_rthr * (u64)UNBUSY_THR_PCT / 100 &&
		   missed_ppm[1] <= ppm_wthr * (u64)UNBUSY_THR_PCT / 100) {
		/* targets met with room: more only if someone was held back */
		ioc->busy_level = nr_shortages ? min(ioc->busy_level, 0) - 1 : 0;
	} else {
		ioc->busy_level = 0;
	}
	ioc->busy_level = clamp(ioc->busy_level, -1000, 1000);
}

void ioc_timer_fn(struct timer_list *timer)
{
	struct ioc *ioc = from_timer(ioc, timer, timer);
	struct ioc_now now;
	unsigned long flags;
	u64 period_vtime;
	int nr_shortages;

	spin_lock_irqsave(&ioc->lock, flags);
	ioc_now(ioc, &now);
	period_vtime = max_t(u64, now.vnow - ioc->period_at_vtime, 1);
	nr_shortages = ioc_check_iocgs(ioc, &now, period_vtime);
	ioc_update_busy_level(ioc, nr_shortages);
	ioc_adjust_base_vrate(ioc);
	ioc->cur_period++;
	if (list_empty(&ioc->active_iocgs)) {
		ioc->busy_level = 0; /* an idle device starts afresh, as Linux's */
		ioc->running = false;
		ioc->period_at = now.now;
		ioc->period_at_vtime = now.vnow;
	} else {
		ioc->period_at = now.now;
		ioc->period_at_vtime = now.vnow;
		mod_timer(&ioc->timer, jiffies + ioc_us_to_jiffies(ioc->period_us));
	}
	spin_unlock_irqrestore(&ioc->lock, flags);
}
