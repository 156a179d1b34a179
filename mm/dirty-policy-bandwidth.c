/*
 * The "bandwidth" policy, past Linux: a wb may hold dirty + writeback at most
 * dirty_bandwidth_seconds (N, /proc/sys/vm) seconds of its measured write bandwidth, and the
 * slow wbs together at most dirty_bandwidth_slow_ratio percent of the global threshold.
 *
 * Why: Linux lets a wb dirty up to its domain's freerun ceiling before throttling it, and
 * shares the domain by recent completions only. A group whose writeback io.max holds to a
 * few MiB/s can therefore park tens of MiB of dirty and queued pages that take many seconds
 * to drain, and every other group in the domain is throttled meanwhile. With the cap, a
 * slow group is throttled to its own pace early and the pool stays with the fast ones.
 *
 * Many slow groups: N seconds each adds up. 32 groups at 1 MiB/s may hold 96 MiB at N = 3,
 * past the global freerun ceiling of a 512 MiB machine, and a fast group beside them would
 * be throttled as if the caps were not there. So the slow wbs share a budget S: a wb is
 * slow when the io.max write limit of its io cgroup (or an ancestor's) gives N seconds
 * below S; each then holds at most S / (the slow wbs holding pages), and all their caps
 * shrink linearly as their pool (their exact counts summed at each check, struct wb_pool)
 * fills from 3/4 of S to S, so the bound holds while measures lag (new groups all start at
 * once) and pages are already queued. Equal groups that only share a disk are not slow:
 * their pages drain at the disk's speed, and the domains govern them as in Linux.
 *
 * The measure: pages the wb completed over its last WB_BW_WINDOW estimator intervals, over
 * a second at least (wb_measured_bandwidth()). It has no prior, unlike avg_write_bandwidth,
 * which starts at 100 MB/s and takes ~15 s to come down to a slow group's rate: the cap
 * must bite in the first second. A slow wb with no completion yet is taken to write at
 * its limit; another gets a floor of 1/32 of the global threshold, enough to start its
 * writeback; a wb back from idle resumes its window where it stopped.
 *
 * No ratchet: the cap bounds what the wb holds, and a wb draining at rate r holds about
 * r x its writeback latency L (queue and device time). The window sees the completions
 * that happened in it whatever their latency, so while N x r >= r x L the estimate stays r;
 * a latency longer than the window does not lower it. It could only shrink if the wb's cap
 * were shorter than its latency, and then the floor keeps it writing. Under the shared
 * budget the slow wbs get equal parts of S, whatever their measured rates, so a wb whose
 * rate dips does not get less room for it.
 *
 * The domain: from cap/2 (its background level: its flusher writes above it) to cap, with
 * the domains' cubic around 7/8 of it. While it governs, the dirty ratelimit is balanced
 * against the measured bandwidth, so it converges to the rate the wb really writes at.
 *
 * While the cap governs, the dirtier pauses about max_pause / 2 at a time (100 ms for a wb
 * of a few MiB/s) rather than Linux's 10 ms, and dirties at most half the room left under
 * its cap before its next check, but DIRTY_POLL_THRESH pages anyway: each check runs the
 * whole of balance_dirty_pages() and wakes the flusher for the pages dirtied since the
 * last one, so a writer held to 4 MiB/s would make some 30 checks a second and as many
 * small writeback passes, and a tenant whose cap is a few hundred pages would check at
 * every folio. The pool of N seconds absorbs the larger steps; a fast wb's max_pause is
 * short anyway (wb_max_pause(): 1/8 of the time its dirty pages take).
 */
#include <cgwb/backing-dev.h>
#include <cgwb/writeback.h>
#include <cgwb/jiffies.h>
#include <cgwb/compiler.h>
#include <cgwb/blk-cgroup.h>
#include "dirty-policy.h"

unsigned int dirty_bandwidth_seconds = 3;
unsigned int dirty_bandwidth_slow_ratio = 25;

/* The slow wbs, on every disk. */
static DEFINE_WB_POOL(slow_pool);

/* The pages the slow wbs may hold together: a share of the global threshold. */
unsigned long bw_slow_budget(unsigned long global_thresh)
{
	return (unsigned long)((u64)global_thresh * READ_ONCE(dirty_bandwidth_slow_ratio) / 100);
}

/*
 * The cap of a wb writing at bw pages/s, N = secs: N x bw, at least the floor (1/32 of the
 * global threshold). For one of nr_slow slow wbs, no more than an equal part of the budget.
 */
unsigned long bw_cap(unsigned long bw, unsigned long secs, unsigned long global_thresh,
		     unsigned long budget, unsigned long nr_slow)
{
	unsigned long cap = max(secs * bw, global_thresh / 32);

	if (!nr_slow)
		return cap;
	return max(min(cap, budget / nr_slow), 1UL);
}

/* The io controller's limit on the wb's writes to its disk, pages/s; ULONG_MAX: none. */
static unsigned long wb_write_limit(struct bdi_writeback *wb)
{
	u64 bps = blkcg_write_bps_limit(wb_blkcg(wb), wb->bdi->disk);

	return bps == U64_MAX ? ULONG_MAX : (unsigned long)max(bps >> PAGE_SHIFT, 1ULL);
}

/*
 * The slow wbs' caps shrink as their pool fills past 3/4 of the budget, to nothing at the
 * budget: the bound holds even while their measures lag (new wbs start at the floor all at
 * once) or their pages are already queued.
 */
unsigned long bw_pool_shrink(unsigned long cap, unsigned long budget, unsigned long pool)
{
	unsigned long freerun = budget - budget / 4;

	if (pool <= freerun)
		return cap;
	if (pool >= budget)
		return 1;
	return max((unsigned long)((u64)cap * (budget - pool) / (budget - freerun)), 1UL);
}

static void bandwidth_wb_limits(struct dirty_throttle_control *pdtc,
				const struct dirty_throttle_control *gdtc)
{
	struct bdi_writeback *wb = pdtc->wb;
	unsigned long secs = READ_ONCE(dirty_bandwidth_seconds);
	unsigned long budget = bw_slow_budget(gdtc->thresh);
	unsigned long limit = wb_write_limit(wb);
	unsigned long bw = min(wb_measured_bandwidth(wb, jiffies), limit);
	bool slow = limit != ULONG_MAX && secs * limit < budget;
	unsigned long cap, pages, nr;

	wb_pool_update(wb, slow ? &slow_pool : NULL);
	if (!slow) {
		pdtc->thresh = bw_cap(bw, secs, gdtc->thresh, budget, 0);
	} else {
		wb_pool_sum(&slow_pool, wb, &pages, &nr);
		/* no completion yet: it will write at its limit */
		cap = bw_cap(bw ? bw : limit, secs, gdtc->thresh, budget, nr);
		pdtc->thresh = bw_pool_shrink(cap, budget, pages);
	}
	pdtc->bg_thresh = pdtc->thresh / 2;
}

static unsigned long bandwidth_write_bandwidth(struct bdi_writeback *wb)
{
	return max(wb_measured_bandwidth(wb, jiffies), 1UL);
}

/* A slow wb that shares the budget with others: its dirtiers pause and step as below. */
static bool bw_shares_budget(struct bdi_writeback *wb)
{
	return wb_in_pool(wb, &slow_pool) && wb_pool_shared(&slow_pool);
}

/*
 * What a slow wb sharing the budget dirties between two checks at its cap: the pages its
 * limit lets it write in MAX_PAUSE (Linux's longest sleep), DIRTY_POLL_THRESH at least,
 * and no more than half of what it holds, so that its disk stays busy through the pause.
 * Every step costs a wake-up, a flusher pass and a bio: at 1 MiB/s, 5 a second rather
 * than 8. From the limit, not the measured rate: a measure that lags (it starts low)
 * would pace the dirtier below the limit, and what it then measures is that pace.
 */
static unsigned long bw_cap_step(const struct dirty_throttle_control *pdtc)
{
	unsigned long limit = wb_write_limit(pdtc->wb);
	unsigned long step = max(min(limit, ULONG_MAX / MAX_PAUSE) * MAX_PAUSE / HZ,
				 (unsigned long)DIRTY_POLL_THRESH);

	return max(min(step, pdtc->wb_dirty / 2), 1UL);
}

/*
 * The dirtiers of slow wbs sharing the budget pause as long as Linux's rule allows at the
 * rate the wb is measured to write (dirty_max_pause(): an eighth of the time its dirty and
 * writeback pages take, up to MAX_PAUSE), and BW_CAP_MIN_PAUSE at least (dirty-policy.h).
 * Linux's max_pause comes from avg_write_bandwidth, which starts at 100 MB/s and takes
 * some 15 s to learn a slow wb: meanwhile the dirtiers it holds would wake every few
 * jiffies to look again, and with many slow wbs that multiplies (a tenant at 1 MiB/s some
 * 300 times a second beside 31 others: the CPU their checks and the flusher wake-ups cost
 * is what the others lose). At the cap, a dirtier sleeps the time its wb takes to write
 * a step (bw_cap_step()), which it may then dirty (wb_bw_cap_min_pause()): one wake-up
 * per step, not one per folio. A slow wb alone keeps Linux's pauses: the
 * dirty ratelimit is estimated from them, and longer sleeps at the cap pull it below the
 * wb's bandwidth.
 */
static long bandwidth_max_pause(struct dirty_throttle_control *pdtc, long max_pause,
				unsigned long task_ratelimit)
{
	unsigned long bw, step;
	long pause;

	if (!bw_shares_budget(pdtc->wb))
		return max_pause;
	bw = bandwidth_write_bandwidth(pdtc->wb);
	pause = max(max(max_pause, dirty_max_pause(bw, pdtc->wb_dirty)), (long)BW_CAP_MIN_PAUSE);
	if (task_ratelimit)
		return pause;
	step = bw_cap_step(pdtc);
	return clamp((long)(HZ * step / bw), pause, (long)MAX_PAUSE); /* pause <= MAX_PAUSE */
}

long wb_bw_cap_min_pause(struct dirty_throttle_control *pdtc, long max_pause,
			 unsigned long task_ratelimit, unsigned long dirty_ratelimit,
			 int *nr_dirtied_pause)
{
	const unsigned long hz2 = roundup_pow_of_two(HZ);
	unsigned long room = pdtc->thresh - min(pdtc->wb_dirty, pdtc->thresh);
	long t = 1 + max_pause / 2;
	long pages = (long)(dirty_ratelimit * (unsigned long)t / hz2);

	/* too slow for DIRTY_POLL_THRESH pages in that time: Linux's rules already stretch it */
	if (pages < DIRTY_POLL_THRESH)
		t = wb_min_pause(pdtc->wb, max_pause, task_ratelimit, dirty_ratelimit,
				 nr_dirtied_pause);
	else
		t = dirty_pause_fit(t, pages, max_pause, task_ratelimit, nr_dirtied_pause);
	/*
	 * A rate not yet learnt (a new wb starts at 100 MB/s) would let a burst of pages past
	 * the cap before the next check: half the room at most, but DIRTY_POLL_THRESH pages
	 * anyway, Linux's least step, or a wb whose cap is a few hundred pages would check at
	 * every folio it dirties. At the limit (no pages from Linux's rule), a step: for a
	 * slow wb sharing the budget, the one its pause made room for (bandwidth_max_pause()).
	 */
	if (!task_ratelimit && bw_shares_budget(pdtc->wb)) {
		*nr_dirtied_pause = (int)bw_cap_step(pdtc);
		return t;
	}
	if (!task_ratelimit)
		*nr_dirtied_pause = DIRTY_POLL_THRESH;
	*nr_dirtied_pause = (int)min((unsigned long)*nr_dirtied_pause,
				     max(room / 2, (unsigned long)DIRTY_POLL_THRESH));
	return t;
}

static const struct dirty_policy_param bandwidth_params[] = {
	{ .name = "dirty_bandwidth_seconds",
	  .value = &dirty_bandwidth_seconds,
	  .min = 1,
	  .max = 60,
	  .selects = true },
	{ .name = "dirty_bandwidth_slow_ratio",
	  .value = &dirty_bandwidth_slow_ratio,
	  .min = 1,
	  .max = 100 },
	{ .name = NULL },
};

const struct dirty_policy dirty_policy_bandwidth = {
	.name = "bandwidth",
	.wb_limits = bandwidth_wb_limits,
	.max_pause = bandwidth_max_pause,
	.min_pause = wb_bw_cap_min_pause,
	.write_bandwidth = bandwidth_write_bandwidth,
	.params = bandwidth_params,
};
