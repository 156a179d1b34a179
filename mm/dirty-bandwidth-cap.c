/*
 * A policy past Linux, off by default: bound what a wb holds dirty (dirty + writeback) by
 * what it can write, dirty_bandwidth_seconds (/proc/sys/vm) seconds of its measured write
 * bandwidth.
 *
 * Why: Linux lets a wb dirty up to its domain's freerun ceiling before throttling it, and
 * shares the domain by recent completions only. A group whose writeback io.max holds to
 * 4 MiB/s can therefore park tens of MiB of dirty and queued pages that take many seconds
 * to drain, and every other group in the domain is throttled meanwhile. With the cap, a
 * slow group is throttled to its own pace early and the pool stays with the fast ones.
 *
 * The measure: pages the wb completed over its last WB_BW_WINDOW estimator intervals (at
 * least 200 ms each), from the samples taken at each bandwidth update and the live counter.
 * It has no prior, unlike avg_write_bandwidth, which starts at 100 MB/s and takes ~15 s to
 * come down to a slow group's real rate: the cap must bite in the first second. A wb with
 * no completions yet (new, or back from idle) gets a floor of 1/32 of the global dirty
 * threshold, enough to start its writeback; as its pages complete, its cap follows its
 * rate within one window, so a fast group is never starved for longer than its first IO.
 *
 * The cap acts like a third domain on the wb's own count: from cap/2 (its background
 * level: its flusher writes above it, wb_over_bg_thresh) to cap, with the domains' cubic
 * around 7/8 of it; the stricter of it and the two domains governs, also when the domains
 * run free. The dirty_ratelimit estimator then judges the position on the wb's count, as
 * under strictlimit, so the rate converges to the wb's bandwidth.
 *
 * While the cap governs, the dirtier pauses about max_pause / 2 at a time (100 ms for a wb
 * of a few MiB/s) rather than Linux's 10 ms: each check runs the whole of
 * balance_dirty_pages(), wakes the flusher for the pages dirtied since the last one and
 * flushes the memcg's foreign records (the file system's metadata blocks, written again
 * each time), so a writer held to 4 MiB/s cost about 30 checks a second, and as many
 * small writeback passes. The pool of N seconds absorbs the larger steps; a fast wb's
 * max_pause is short anyway (wb_max_pause(): 1/8 of the time its dirty pages take).
 */
#include <cgwb/backing-dev.h>
#include <cgwb/writeback.h>
#include <cgwb/jiffies.h>
#include <cgwb/compiler.h>

unsigned int dirty_bandwidth_seconds;

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

unsigned long wb_measured_bandwidth(struct bdi_writeback *wb, unsigned long now)
{
	const struct wb_bw_sample *oldest = &wb->bw_window[wb->bw_window_head];
	unsigned long written = (unsigned long)wb_stat(wb, WB_WRITTEN);
	unsigned long elapsed = max(now - oldest->time, 1UL);

	return (unsigned long)((u64)(written - min(written, oldest->written)) * HZ / elapsed);
}

unsigned long wb_bw_cap(struct bdi_writeback *wb, const struct dirty_throttle_control *gdtc)
{
	unsigned int secs = READ_ONCE(dirty_bandwidth_seconds);
	u64 cap;

	if (!secs)
		return 0;
	cap = (u64)wb_measured_bandwidth(wb, jiffies) * secs;
	return (unsigned long)max(cap, (u64)max(gdtc->thresh / 32, 1UL));
}

unsigned long wb_bw_cap_pos_ratio(unsigned long wb_dirty, unsigned long cap)
{
	unsigned long freerun = dirty_freerun_ceiling(cap, cap / 2);
	unsigned long setpoint = (freerun + cap) / 2;

	if (wb_dirty >= cap)
		return 0;
	return (unsigned long)pos_ratio_polynom(setpoint, wb_dirty, cap);
}

long wb_bw_cap_min_pause(struct bdi_writeback *wb, long max_pause, unsigned long task_ratelimit,
			 unsigned long dirty_ratelimit, int *nr_dirtied_pause)
{
	const unsigned long hz2 = roundup_pow_of_two(HZ);
	long t = 1 + max_pause / 2;
	long pages = (long)(dirty_ratelimit * (unsigned long)t / hz2);

	/* too slow for DIRTY_POLL_THRESH pages in that time: Linux's rules already stretch it */
	if (pages < DIRTY_POLL_THRESH)
		return wb_min_pause(wb, max_pause, task_ratelimit, dirty_ratelimit, nr_dirtied_pause);
	return dirty_pause_fit(t, pages, max_pause, task_ratelimit, nr_dirtied_pause);
}
