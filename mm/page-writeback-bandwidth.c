/*
 * The per-wb estimators of dirty throttling, as in Linux: the write bandwidth (pages/s the
 * device completes for this wb) and the dirty ratelimit (the per-task dirtying rate that,
 * with the wb's dirtiers all at the setpoint, matches that bandwidth).
 *
 * They run at most once per BANDWIDTH_INTERVAL under wb->list_lock: the bandwidth from
 * writeback (do_writepages, the flusher, bw_dwork after the last page of an inode) and from
 * balance_dirty_pages(); the ratelimit and the domains' smoothed limits only from
 * balance_dirty_pages(), where both domains' figures are at hand.
 *
 * Beside Linux's estimate, for the policies: the bandwidth the wb completed over its last
 * WB_BW_WINDOW intervals, a sample at each update (wb_measured_bandwidth()).
 */
#include <cgwb/backing-dev.h>
#include <cgwb/writeback.h>
#include <cgwb/jiffies.h>
#include <cgwb/compiler.h>
#include <cgwb/bug.h>
#include <cgwb/trace/writeback.h>
#include "internal.h"
#include "dirty-policy.h"

#define WB_BANDWIDTH_IDLE_JIF HZ

/*
 * bw: a blend of the last interval's rate and the old estimate weighted by time over a
 * period of about 3 s. avg: a second smoothing that only moves toward the old bw when that
 * lies between avg and the new bw, so it ignores one-interval spikes.
 */
void wb_update_write_bandwidth(struct bdi_writeback *wb, unsigned long elapsed, unsigned long written)
{
	const unsigned long period = roundup_pow_of_two(3 * HZ);
	unsigned long avg = wb->avg_write_bandwidth;
	unsigned long old = wb->write_bandwidth;
	/* written may shrink when pages are redirtied */
	unsigned long delta = written - min(written, wb->written_stamp);
	u64 bw = (u64)delta * HZ;

	if (elapsed > period) {
		bw /= elapsed;
		avg = (unsigned long)bw;
		goto out;
	}
	bw += (u64)old * (period - elapsed);
	bw >>= ilog2(period);
	if (avg > old && old >= (unsigned long)bw)
		avg -= (avg - old) >> 3;
	if (avg < old && old <= (unsigned long)bw)
		avg += (old - avg) >> 3;
out:
	avg = max(avg, 1UL);
	if (wb_has_dirty_io(wb)) {
		long delta_avg = (long)avg - (long)wb->avg_write_bandwidth;

		long was = (long)__atomic_fetch_add(&wb->bdi->tot_write_bandwidth,
						    (unsigned long)delta_avg, __ATOMIC_RELAXED);

		WARN_ON_ONCE(was + delta_avg < 0);
	}
	wb->write_bandwidth = (unsigned long)bw;
	WRITE_ONCE(wb->avg_write_bandwidth, avg);
}

static unsigned long min3ul(unsigned long a, unsigned long b, unsigned long c)
{
	return min(a, min(b, c));
}

static unsigned long max3ul(unsigned long a, unsigned long b, unsigned long c)
{
	return max(a, max(b, c));
}

/*
 * N dirtiers at task_ratelimit each dirty N x task_ratelimit, so
 * balanced = task_ratelimit x write_bw / dirty_rate is about write_bw / N whatever
 * pos_ratio was. dirty_ratelimit moves toward it only when the position error agrees with
 * the rate error (below the setpoint never down, above it never up), by steps damped
 * with the relative error, so that it settles instead of oscillating.
 */
void wb_update_dirty_ratelimit(struct dirty_throttle_control *dtc, unsigned long dirtied,
			       unsigned long elapsed)
{
	struct bdi_writeback *wb = dtc->wb;
	unsigned long dirty = dtc->dirty;
	unsigned long freerun = dirty_freerun_ceiling(dtc->thresh, dtc->bg_thresh);
	/* a policy's domain has no smoothed limit: its thresh */
	unsigned long limit = dtc->dom ? hard_dirty_limit(dtc->dom, dtc->thresh) : dtc->thresh;
	unsigned long setpoint = (freerun + limit) / 2;
	unsigned long write_bw = dtc->policy && dtc->policy->write_bandwidth ?
					 dtc->policy->write_bandwidth(wb) :
					 wb->avg_write_bandwidth;
	unsigned long dirty_ratelimit = wb->dirty_ratelimit;
	unsigned long dirty_rate, task_ratelimit, balanced, step = 0, x, shift;

	dirty_rate = (dirtied - wb->dirtied_stamp) * HZ / elapsed;
	/* +1 lets a tiny rate grow again */
	task_ratelimit =
		(unsigned long)((u64)dirty_ratelimit * dtc->pos_ratio >> RATELIMIT_CALC_SHIFT) + 1;
	balanced = (unsigned long)((u64)task_ratelimit * write_bw / (dirty_rate | 1));
	balanced = min(balanced, write_bw);

	if (dtc->policy) {
		/* a policy's domain governs: judge the position on the wb's own count */
		dirty = dtc->wb_dirty;
		setpoint = dtc->setpoint;
	} else if (wb->bdi->capabilities & BDI_CAP_STRICTLIMIT) {
		dirty = dtc->wb_dirty;
		setpoint = (dtc->wb_thresh + dtc->wb_bg_thresh) / 2;
	}
	if (dirty < setpoint) {
		x = min3ul(wb->balanced_dirty_ratelimit, balanced, task_ratelimit);
		if (dirty_ratelimit < x)
			step = x - dirty_ratelimit;
	} else {
		x = max3ul(wb->balanced_dirty_ratelimit, balanced, task_ratelimit);
		if (dirty_ratelimit > x)
			step = dirty_ratelimit - x;
	}
	/* small relative errors make no step; an error of half the rate moves 1/16 of it */
	shift = dirty_ratelimit / (2 * step + 1);
	step = shift < 64 ? DIV_ROUND_UP(step >> shift, 8) : 0;
	if (dirty_ratelimit < balanced)
		dirty_ratelimit += step;
	else
		dirty_ratelimit -= step;
	WRITE_ONCE(wb->dirty_ratelimit, max(dirty_ratelimit, 1UL));
	wb->balanced_dirty_ratelimit = balanced;
	trace_bdi_dirty_ratelimit(wb, dirty_rate, task_ratelimit);
}

/*
 * Both domains' ratelimit updates see the same dirtied/elapsed (the stamps move after
 * both), so the memcg domain, updated last, has the last word. When a policy's domain
 * governs the decision (pdtc given), the ratelimit follows that domain alone.
 */
void __wb_update_bandwidth(struct dirty_throttle_control *gdtc, struct dirty_throttle_control *mdtc,
			   struct dirty_throttle_control *pdtc, bool update_ratelimit)
{
	struct bdi_writeback *wb = gdtc->wb;
	unsigned long now = jiffies;
	unsigned long dirtied, written, elapsed;

	spin_lock(&wb->list_lock);
	/* racing callers: the other one may just have done it */
	elapsed = max(now - wb->bw_time_stamp, 1UL);
	dirtied = (unsigned long)wb_stat(wb, WB_DIRTIED);
	written = (unsigned long)wb_stat(wb, WB_WRITTEN);
	if (update_ratelimit) {
		domain_update_dirty_limit(gdtc, now);
		if (mdtc)
			domain_update_dirty_limit(mdtc, now);
		if (pdtc) {
			wb_update_dirty_ratelimit(pdtc, dirtied, elapsed);
		} else {
			wb_update_dirty_ratelimit(gdtc, dirtied, elapsed);
			if (mdtc)
				wb_update_dirty_ratelimit(mdtc, dirtied, elapsed);
		}
	}
	wb_update_write_bandwidth(wb, elapsed, written);
	wb_bw_window_add(wb, now, written);
	wb->dirtied_stamp = dirtied;
	wb->written_stamp = written;
	WRITE_ONCE(wb->bw_time_stamp, now);
	spin_unlock(&wb->list_lock);
}

void wb_update_bandwidth(struct bdi_writeback *wb)
{
	struct dirty_throttle_control gdtc;

	if (!time_after(jiffies, READ_ONCE(wb->bw_time_stamp) + BANDWIDTH_INTERVAL))
		return;
	gdtc_init(&gdtc, wb);
	__wb_update_bandwidth(&gdtc, NULL, NULL, false);
}

void wb_bw_window_reset(struct bdi_writeback *wb, unsigned long now, unsigned long written)
{
	for (int i = 0; i < WB_BW_WINDOW; i++) {
		wb->bw_window[i].time = now;
		wb->bw_window[i].written = written;
	}
	wb->bw_window_head = 0;
}

void wb_bw_window_add(struct bdi_writeback *wb, unsigned long now, unsigned long written)
{
	unsigned int i = wb->bw_window_head;

	wb->bw_window[i].time = now;
	wb->bw_window[i].written = written;
	wb->bw_window_head = (i + 1) % WB_BW_WINDOW;
}

/*
 * Back from idle: the window goes on from where the wb stopped, as if the idle time had not
 * passed, so that its measure is its rate while it writes, not a new start from nothing
 * (a fast group back after a pause would be held to the floor until its first second).
 */
void wb_bw_window_resume(struct bdi_writeback *wb, unsigned long now)
{
	unsigned int newest = (wb->bw_window_head + WB_BW_WINDOW - 1) % WB_BW_WINDOW;
	unsigned long idle = now - wb->bw_window[newest].time;

	for (int i = 0; i < WB_BW_WINDOW; i++)
		wb->bw_window[i].time += idle;
}

/*
 * Over at least a second: the first completions after a reset come in a burst (a throttled
 * group's first bio passes at once) and would read as a rate many times its own.
 */
unsigned long wb_measured_bandwidth(struct bdi_writeback *wb, unsigned long now)
{
	const struct wb_bw_sample *oldest = &wb->bw_window[wb->bw_window_head];
	unsigned long written = (unsigned long)wb_stat(wb, WB_WRITTEN);
	unsigned long elapsed = max(now - oldest->time, (unsigned long)HZ);

	return (unsigned long)((u64)(written - min(written, oldest->written)) * HZ / elapsed);
}

/* Idle for more than a second with nothing in flight: do not average the idle time in. */
void wb_bandwidth_estimate_start(struct bdi_writeback *wb)
{
	unsigned long now = jiffies;

	if (time_after(now, wb->bw_time_stamp + WB_BANDWIDTH_IDLE_JIF) &&
	    !__atomic_load_n(&wb->writeback_inodes, __ATOMIC_RELAXED)) {
		spin_lock(&wb->list_lock);
		wb->dirtied_stamp = (unsigned long)wb_stat(wb, WB_DIRTIED);
		wb->written_stamp = (unsigned long)wb_stat(wb, WB_WRITTEN);
		WRITE_ONCE(wb->bw_time_stamp, now);
		wb_bw_window_resume(wb, now);
		spin_unlock(&wb->list_lock);
	}
}

/* bw_dwork: refresh after the last inode of the wb finished writeback. */
void wb_update_bandwidth_workfn(struct work_struct *work)
{
	struct bdi_writeback *wb =
		container_of(to_delayed_work(work), struct bdi_writeback, bw_dwork);
	struct dirty_throttle_control gdtc;

	gdtc_init(&gdtc, wb);
	__wb_update_bandwidth(&gdtc, NULL, NULL, false);
}
