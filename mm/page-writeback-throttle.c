/*
 * Dirty throttling: balance_dirty_pages() and its control law, as in Linux (6.x structure).
 *
 * The policy: a task that dirties pages is paused so that it dirties no faster than
 * task_ratelimit = wb->dirty_ratelimit x pos_ratio. pos_ratio measures how far the dirty
 * pages are from the setpoint in each domain the wb belongs to (global, and its memcg's
 * unless it serves the root): the domain's cubic around its setpoint, scaled by a linear
 * line of the wb's own dirty pages around its share; the domain with the lower pos_ratio
 * governs. Below both domains' freerun ceilings nobody sleeps; at a domain's hard limit
 * pos_ratio is 0 and the task sleeps MAX_PAUSE at a time until it is below again.
 *
 * The dirty-throttling policy in force (mm/dirty-policy.h) may add a third domain on the
 * wb's own count; the same law runs on it and the lowest pos_ratio of the three governs.
 *
 * The throttled wb is the current task's on the inode's bdi (wb_get_create for its
 * memcg), not the inode's: a task pays for what its cgroup dirties wherever it writes.
 */
#include <cgwb/pagemap.h>
#include <cgwb/fs.h>
#include <cgwb/backing-dev.h>
#include <cgwb/writeback.h>
#include <cgwb/smp.h>
#include <cgwb/memcontrol.h>
#include <cgwb/blk-cgroup.h>
#include <cgwb/vmstat.h>
#include <cgwb/sched.h>
#include <cgwb/bug.h>
#include <cgwb/irqflags.h>
#include <cgwb/trace/writeback.h>
#include "internal.h"
#include "dirty-policy.h"

unsigned long ratelimit_pages = 32;
/* one CPU: Linux's per-CPU counters are single counters here */
DEFINE_PER_CPU(int, bdp_ratelimits);
DEFINE_PER_CPU(int, dirty_throttle_leaks);

long long pos_ratio_polynom(unsigned long setpoint, unsigned long dirty, unsigned long limit)
{
	/* a multiplication, not <<: the difference may be negative */
	long long x = ((long long)setpoint - (long long)dirty) * (1LL << RATELIMIT_CALC_SHIFT);
	long long pos;

	x /= (long long)((limit - setpoint) | 1);
	pos = x;
	pos = pos * x >> RATELIMIT_CALC_SHIFT;
	pos = pos * x >> RATELIMIT_CALC_SHIFT;
	pos += 1 << RATELIMIT_CALC_SHIFT;
	return clamp(pos, 0LL, 2LL << RATELIMIT_CALC_SHIFT);
}

/*
 * strictlimit: the wb's own cubic between its freerun ceiling and its thresh also applies.
 * A wb with almost nothing dirty ramps up at twice the global ratio (Linux 6.1): its share,
 * judged on its own few pages, would hold it at its first ones.
 */
static void wb_position_ratio_strict(struct dirty_throttle_control *dtc, long long pos_ratio)
{
	unsigned long wb_setpoint;

	if (dtc->wb_dirty < 8) {
		dtc->pos_ratio = (unsigned long)min(pos_ratio * 2, 2LL << RATELIMIT_CALC_SHIFT);
		return;
	}
	if (dtc->wb_dirty >= dtc->wb_thresh)
		return;
	wb_setpoint = dirty_freerun_ceiling(dtc->wb_thresh, dtc->wb_bg_thresh);
	if (wb_setpoint == 0 || wb_setpoint == dtc->wb_thresh)
		return;
	dtc->pos_ratio = (unsigned long)min(pos_ratio, pos_ratio_polynom(wb_setpoint, dtc->wb_dirty,
									 dtc->wb_thresh));
}

void wb_position_ratio(struct dirty_throttle_control *dtc)
{
	unsigned long write_bw = READ_ONCE(dtc->wb->avg_write_bandwidth);
	unsigned long freerun = dirty_freerun_ceiling(dtc->thresh, dtc->bg_thresh);
	unsigned long limit = hard_dirty_limit(dtc->dom, dtc->thresh);
	unsigned long wb_thresh = min(dtc->wb_thresh, dtc->thresh);
	unsigned long setpoint, wb_setpoint, span, x_intercept;
	long long pos_ratio;
	u64 x;

	dtc->limit = limit;
	dtc->pos_ratio = 0;
	if (dtc->dirty >= limit)
		return;
	setpoint = (freerun + limit) / 2;
	pos_ratio = pos_ratio_polynom(setpoint, dtc->dirty, limit);
	if (dtc->wb->bdi->capabilities & BDI_CAP_STRICTLIMIT) {
		wb_position_ratio_strict(dtc, pos_ratio);
		return;
	}
	/*
	 * A wb idle for a while has a share near 0 because it was idle, not slow: its line is
	 * drawn for at least an eighth of the room left below the limit, so that its first
	 * writes are not stalled and it can ramp up (Linux 6.1; its wb_thresh stays as it is).
	 */
	wb_thresh = max(wb_thresh, (limit - dtc->dirty) / 8);
	/*
	 * The wb line: 1.0 at the wb's part of the setpoint, falling linearly with its dirty
	 * pages, over a span of about 8 x its bandwidth when it is alone (its dirty pages swing
	 * by about one bandwidth around the setpoint) and toward its thresh among many. Never
	 * below 1/4, so that a wb far above its share drains smoothly instead of stalling.
	 */
	x = ((u64)wb_thresh << 16) / (dtc->thresh | 1);
	wb_setpoint = (unsigned long)((u64)setpoint * x >> 16);
	span = (unsigned long)(((u64)dtc->thresh - wb_thresh + 8 * (u64)write_bw) * x >> 16);
	x_intercept = wb_setpoint + span;
	if (dtc->wb_dirty < x_intercept - span / 4)
		pos_ratio = pos_ratio * (long long)(x_intercept - dtc->wb_dirty) /
			    (long long)((x_intercept - wb_setpoint) | 1);
	else
		pos_ratio /= 4;
	/* the reserve area: a wb about to run out of dirty pages would leave its disk idle */
	x_intercept = wb_thresh / 2;
	if (dtc->wb_dirty < x_intercept) {
		if (dtc->wb_dirty > x_intercept / 8)
			pos_ratio = pos_ratio * (long long)x_intercept / (long long)dtc->wb_dirty;
		else
			pos_ratio *= 8;
	}
	dtc->pos_ratio = (unsigned long)pos_ratio;
}

unsigned long dirty_poll_interval(unsigned long dirty, unsigned long thresh)
{
	if (thresh > dirty)
		return 1UL << (ilog2(thresh - dirty) >> 1);
	return 1;
}

/* Sleep at most 1/8 of the time writing wb_dirty pages at bw pages/s takes (safety 8). */
long dirty_max_pause(unsigned long bw, unsigned long wb_dirty)
{
	unsigned long t = wb_dirty / (1 + bw / roundup_pow_of_two(1 + HZ / 8)) + 1;

	return (long)min(t, (unsigned long)MAX_PAUSE);
}

/* Linux's: at the wb's estimated write bandwidth. */
long wb_max_pause(struct bdi_writeback *wb, unsigned long wb_dirty)
{
	return dirty_max_pause(READ_ONCE(wb->avg_write_bandwidth), wb_dirty);
}

/*
 * Aim at 10 ms pauses for one dirtier and about 10 ms more per doubling of the dirtiers
 * (fewer, longer sleeps cost less CPU), but never pauses so short that fewer than
 * DIRTY_POLL_THRESH pages are dirtied between checks. The pages come from the stable
 * dirty_ratelimit, the pause from the fluctuating task_ratelimit.
 */
long wb_min_pause(struct bdi_writeback *wb, long max_pause, unsigned long task_ratelimit,
		  unsigned long dirty_ratelimit, int *nr_dirtied_pause)
{
	long hi = ilog2(READ_ONCE(wb->avg_write_bandwidth));
	long lo = ilog2(READ_ONCE(wb->dirty_ratelimit));
	const unsigned long hz2 = roundup_pow_of_two(HZ);
	long t = max(1, HZ / 100);
	long pages;

	if (hi > lo)
		t += (hi - lo) * (10 * HZ) / 1024;
	t = min(t, 1 + max_pause / 2);
	pages = (long)(dirty_ratelimit * (unsigned long)t / hz2);
	if (pages < DIRTY_POLL_THRESH) {
		t = max_pause;
		pages = (long)(dirty_ratelimit * (unsigned long)t / hz2);
		if (pages > DIRTY_POLL_THRESH) {
			pages = DIRTY_POLL_THRESH;
			t = (long)(HZ * DIRTY_POLL_THRESH / dirty_ratelimit);
		}
	}
	return dirty_pause_fit(t, pages, max_pause, task_ratelimit, nr_dirtied_pause);
}

long dirty_pause_fit(long t, long pages, long max_pause, unsigned long task_ratelimit,
		     int *nr_dirtied_pause)
{
	if ((long)(HZ * (unsigned long)pages / (task_ratelimit + 1)) > max_pause) {
		t = max_pause;
		pages = (long)(task_ratelimit * (unsigned long)t / roundup_pow_of_two(HZ));
	}
	*nr_dirtied_pause = (int)pages;
	return pages >= DIRTY_POLL_THRESH ? 1 + t / 2 : t;
}

/* ---------------------------------------------------------------- balance_dirty_pages */

/* Domain figures and freerun (strictlimit: judged on the wb's own share). */
static void balance_domain_limits(struct dirty_throttle_control *dtc, bool strictlimit)
{
	unsigned long dirty, thresh, bg_thresh;

	domain_dirty_avail(dtc, true);
	domain_dirty_limits(dtc);
	dirty = dtc->dirty;
	thresh = dtc->thresh;
	bg_thresh = dtc->bg_thresh;
	if (strictlimit) {
		wb_dirty_limits(dtc);
		dirty = dtc->wb_dirty;
		thresh = dtc->wb_thresh;
		bg_thresh = dtc->wb_bg_thresh;
	}
	dtc->freerun = dirty <= dirty_freerun_ceiling(thresh, bg_thresh);
}

static unsigned long domain_poll_intv(struct dirty_throttle_control *dtc, bool strictlimit)
{
	if (strictlimit)
		return dirty_poll_interval(dtc->wb_dirty, dtc->wb_thresh);
	return dirty_poll_interval(dtc->dirty, dtc->thresh);
}

/* The wb's share, whether it exceeds it with the domain over thresh, and pos_ratio. */
static void balance_wb_limits(struct dirty_throttle_control *dtc, bool strictlimit)
{
	if (!strictlimit)
		wb_dirty_limits(dtc);
	dtc->dirty_exceeded = dtc->wb_dirty > dtc->wb_thresh &&
			      (dtc->dirty > dtc->thresh || strictlimit);
	wb_position_ratio(dtc);
}

/*
 * Below every freerun ceiling: look again after about sqrt(room left) pages. Unless this
 * call found it over its share of a domain over its limit before, the wb is not (Linux
 * clears dirty_exceeded on the way out).
 */
static void dirty_freerun(struct bdi_writeback *wb, struct dirty_throttle_control *gdtc,
			  struct dirty_throttle_control *mdtc, struct dirty_throttle_control *pdtc,
			  bool strictlimit, bool exceeded, unsigned long now)
{
	unsigned long intv = domain_poll_intv(gdtc, strictlimit);

	if (mdtc)
		intv = min(intv, domain_poll_intv(mdtc, strictlimit));
	if (pdtc)
		intv = min(intv, dirty_poll_interval(pdtc->wb_dirty, pdtc->thresh));
	if (!exceeded && wb->dirty_exceeded)
		wb->dirty_exceeded = 0;
	current->dirty_paused_when = now;
	current->nr_dirtied = 0;
	current->nr_dirtied_pause = (int)min(intv, (unsigned long)INT_MAX);
}

/*
 * How long to sleep for pages_dirtied at task_ratelimit: the time they should have taken,
 * less the think time since the last pause; max_pause at the hard limit (task_ratelimit 0).
 * False when it is too short to sleep: the task's virtual clock carries it instead. A pause
 * over max_pause is cut to it, and up to one more max_pause of debt goes to the next one
 * (*now moves ahead).
 */
bool dirty_pause(unsigned long task_ratelimit, unsigned long pages_dirtied, long min_pause,
		 long max_pause, unsigned long *now, long *pause)
{
	long period;

	if (!task_ratelimit) {
		*pause = max_pause;
		return true;
	}
	period = (long)(HZ * pages_dirtied / task_ratelimit);
	*pause = period;
	if (current->dirty_paused_when)
		*pause -= (long)(*now - current->dirty_paused_when);
	if (*pause < min_pause) {
		if (*pause < -HZ) {
			/* a light dirtier: more than 1 s of think time */
			current->dirty_paused_when = *now;
			current->nr_dirtied = 0;
		} else if (period) {
			current->dirty_paused_when += (unsigned long)period;
			current->nr_dirtied = 0;
		} else if (current->nr_dirtied_pause <= (int)pages_dirtied) {
			current->nr_dirtied_pause += (int)pages_dirtied;
		}
		return false;
	}
	if (*pause > max_pause) {
		*now += (unsigned long)min(*pause - max_pause, max_pause);
		*pause = max_pause;
	}
	return true;
}

struct dirty_throttle_control *dirty_throttle_select(struct dirty_throttle_control *gdtc,
						     struct dirty_throttle_control *mdtc,
						     struct dirty_throttle_control *pdtc,
						     bool strictlimit,
						     struct dirty_throttle_control **ddtc)
{
	struct dirty_throttle_control *sdtc = gdtc;

	balance_wb_limits(gdtc, strictlimit);
	if (mdtc) {
		balance_wb_limits(mdtc, strictlimit);
		if (mdtc->pos_ratio < gdtc->pos_ratio)
			sdtc = mdtc;
	}
	*ddtc = sdtc;
	if (pdtc) {
		pdtc_position(pdtc);
		if (pdtc->pos_ratio < sdtc->pos_ratio)
			sdtc = pdtc;
	}
	return sdtc;
}

static void balance_dirty_pages(struct bdi_writeback *wb, unsigned long pages_dirtied)
{
	struct dirty_throttle_control gdtc_stor, mdtc_stor, pdtc_stor;
	struct dirty_throttle_control *const gdtc = &gdtc_stor;
	struct dirty_throttle_control *mdtc, *pdtc, *sdtc, *ddtc;
	const struct dirty_policy *policy = dirty_policy_get();
	bool strictlimit = wb->bdi->capabilities & BDI_CAP_STRICTLIMIT;
	unsigned long start_time = jiffies;
	bool exceeded = false;
	int token;

	gdtc_init(gdtc, wb);
	mdtc = mdtc_init(&mdtc_stor, wb, gdtc) ? &mdtc_stor : NULL;
	for (;;) {
		unsigned long now = jiffies;
		unsigned long nr_dirty = global_node_page_state(NR_FILE_DIRTY);
		unsigned long task_ratelimit, dirty_ratelimit;
		long pause, max_pause, min_pause;
		int nr_dirtied_pause;

		balance_domain_limits(gdtc, strictlimit);
		if (mdtc)
			balance_domain_limits(mdtc, strictlimit);
		pdtc = pdtc_limits(&pdtc_stor, policy, wb, gdtc) ? &pdtc_stor : NULL;
		/* laptop mode: no background writeback before the freerun ceiling */
		if (!laptop_mode && nr_dirty > gdtc->bg_thresh && !writeback_in_progress(wb)) {
			trace_writeback_wake_background(wb);
			wb_wakeup(wb);
		}
		if (gdtc->freerun && (!mdtc || mdtc->freerun) && (!pdtc || pdtc->freerun)) {
			dirty_freerun(wb, gdtc, mdtc, pdtc, strictlimit, exceeded, now);
			return;
		}
		/* over a freerun ceiling: the flusher must be at work */
		if (!writeback_in_progress(wb))
			wb_wakeup(wb);
		/*
		 * Pages our memcg dirtied in other groups' inodes count in its domains: have them
		 * written, as Linux does once a domain is past its freerun ceiling. A policy's
		 * domain is past its own most of the time it governs: there, only when such
		 * pages weigh in its limit (each flush is a writeback pass of the owners' wbs).
		 */
		if (!gdtc->freerun || (mdtc && !mdtc->freerun) || (pdtc && pdtc_foreign_counts(pdtc)))
			mem_cgroup_flush_foreign(wb);

		sdtc = dirty_throttle_select(gdtc, mdtc, pdtc, strictlimit, &ddtc);
		exceeded = gdtc->dirty_exceeded || (mdtc && mdtc->dirty_exceeded);
		/* set here, cleared only on the way out (below), as Linux's */
		if (exceeded && !wb->dirty_exceeded)
			wb->dirty_exceeded = 1;
		if (time_after(now, READ_ONCE(wb->bw_time_stamp) + BANDWIDTH_INTERVAL))
			__wb_update_bandwidth(gdtc, mdtc, sdtc == pdtc ? pdtc : NULL, true);

		dirty_ratelimit = READ_ONCE(wb->dirty_ratelimit);
		task_ratelimit = (unsigned long)((u64)dirty_ratelimit * sdtc->pos_ratio >>
						 RATELIMIT_CALC_SHIFT);
		max_pause = wb_max_pause(wb, sdtc->wb_dirty);
		if (sdtc == pdtc && policy->max_pause)
			max_pause = policy->max_pause(pdtc, max_pause, task_ratelimit);
		if (sdtc == pdtc && policy->min_pause)
			min_pause = policy->min_pause(pdtc, max_pause, task_ratelimit,
						      dirty_ratelimit, &nr_dirtied_pause);
		else
			min_pause = wb_min_pause(wb, max_pause, task_ratelimit, dirty_ratelimit,
						 &nr_dirtied_pause);
		if (!dirty_pause(task_ratelimit, pages_dirtied, min_pause, max_pause, &now, &pause))
			break;
		/* the domains' figures, as Linux's tracepoint has them; the rates are the pause's */
		trace_balance_dirty_pages(
			wb, ddtc->thresh, ddtc->bg_thresh, ddtc->dirty, ddtc->wb_thresh,
			ddtc->wb_dirty, dirty_ratelimit, task_ratelimit, pages_dirtied,
			task_ratelimit ? HZ * pages_dirtied / task_ratelimit : (unsigned long)pause,
			pause, start_time);
		WRITE_ONCE(wb->last_pause, pause);
		/* an IO stall for pressure stall information: Linux's io_schedule_timeout() */
		token = io_schedule_prepare();
		__set_current_state(TASK_KILLABLE);
		schedule_timeout(pause);
		io_schedule_finish(token);
		current->dirty_paused_when = now + (unsigned long)pause;
		current->nr_dirtied = 0;
		current->nr_dirtied_pause = nr_dirtied_pause;
		if (task_ratelimit)
			break;
		/*
		 * At the limit: again, unless this wb holds next to nothing, so that a stuck
		 * device elsewhere cannot block it. One page would keep the pipe going, but its
		 * count may be off by the per-CPU error.
		 */
		if (sdtc->wb_dirty <= wb_stat_error() || fatal_signal_pending(current))
			break;
	}
	if (!exceeded && wb->dirty_exceeded)
		wb->dirty_exceeded = 0;
}

void balance_dirty_pages_ratelimited(struct address_space *mapping)
{
	struct inode *inode = mapping->host;
	struct backing_dev_info *bdi = inode_to_bdi(inode);
	struct bdi_writeback *wb = NULL;
	int ratelimit, *p;

	if (!bdi_cap_writeback(bdi) || (mapping->flags & (1UL << AS_NO_ACCOUNT)))
		return;
	if (inode_cgwb_enabled(inode))
		wb = wb_get_create(bdi, mem_cgroup_from_task(current), GFP_KERNEL);
	if (!wb)
		wb = &bdi->wb;

	ratelimit = current->nr_dirtied_pause;
	if (wb->dirty_exceeded)
		ratelimit = min(ratelimit, 32 >> (PAGE_SHIFT - 10));
	/*
	 * Many tasks dirtying a little each: this CPU's count makes one of them check. As
	 * Linux, preemption off is enough: no interrupt handler dirties pages or exits tasks,
	 * and an add from a task that moved here meanwhile may be lost, as Linux's may.
	 */
	preempt_disable();
	p = this_cpu_ptr(&bdp_ratelimits);
	if (current->nr_dirtied >= ratelimit) {
		*p = 0;
	} else if (*p >= (int)ratelimit_pages) {
		*p = 0;
		ratelimit = 0;
	}
	/* pages dirtied by tasks that exited before their check are charged here */
	p = this_cpu_ptr(&dirty_throttle_leaks);
	if (*p > 0 && current->nr_dirtied < ratelimit) {
		int n = min(*p, ratelimit - current->nr_dirtied);

		*p -= n;
		current->nr_dirtied += n;
	}
	preempt_enable();
	if (current->nr_dirtied >= ratelimit) {
		balance_dirty_pages(wb, (unsigned long)current->nr_dirtied);
		/* io.cost's delay for the group's IO debt, Linux's return-to-user throttle */
		blkcg_maybe_throttle_current();
	}
	wb_put(wb);
}

void writeback_set_ratelimit(void)
{
	unsigned long bg, thresh;

	global_dirty_limits(&bg, &thresh);
	global_wb_domain.dirty_limit = thresh;
	ratelimit_pages = max(thresh / (num_online_cpus() * 32), 16UL);
}
