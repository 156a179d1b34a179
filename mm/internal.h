/*
 * Shared inside mm/: between the bdi, cgwb and writeback files, and the control law of dirty
 * throttling with its estimators (their unit tests include this header too).
 */
#ifndef CGWB_MM_INTERNAL_H
#define CGWB_MM_INTERNAL_H

#include <cgwb/backing-dev.h>
#include <cgwb/writeback.h>

/* ---------------------------------------------------------------- the dirty throttling law */
/*
 * The control law of balance_dirty_pages(), as in Linux. Each domain (global, and the
 * wb's memcg unless it is the root) has three marks: freerun = (thresh + bg_thresh) / 2,
 * below which nobody is throttled; limit = the smoothed hard limit, where dirtiers stop;
 * setpoint halfway between. A dirtier is paused so that it dirties at
 * task_ratelimit = wb->dirty_ratelimit x pos_ratio, where pos_ratio (1/1024 units, 1.0
 * at the setpoint) comes from the domain's cubic and the wb's linear control line, and
 * the stricter domain wins. dirty_ratelimit converges to the wb's write bandwidth divided
 * by the number of dirtiers (wb_update_dirty_ratelimit()).
 */
#define BANDWIDTH_INTERVAL max(HZ / 5, 1)            /* estimator and smoothing period */
#define MAX_PAUSE max(HZ / 5, 1)                     /* longest sleep per call */
#define DIRTY_POLL_THRESH (128 >> (PAGE_SHIFT - 10)) /* 32 pages: shortest useful interval */
#define RATELIMIT_CALC_SHIFT 10                      /* pos_ratio 1024 = 1.0 */

/*
 * One domain's view during one throttling decision. gdtc: the global domain; mdtc: the
 * wb's memcg domain, which points at its global sibling (memcg byte limits and avail are
 * derived from the global figures).
 */
struct dirty_throttle_control {
	struct wb_domain *dom;
	struct dirty_throttle_control *gdtc; /* mdtc only: the global sibling; NULL in a gdtc */
	struct bdi_writeback *wb;
	struct fprop_local *wb_completions; /* wb's share counter in dom */

	unsigned long avail;     /* dirtyable memory */
	unsigned long dirty;     /* dirty pages (+ writeback when throttling) */
	unsigned long thresh;    /* hard threshold */
	unsigned long bg_thresh; /* background threshold */
	unsigned long limit;     /* the smoothed hard limit (set by wb_position_ratio) */

	unsigned long wb_dirty;  /* this wb's dirty + writeback pages */
	unsigned long wb_thresh; /* this wb's share of thresh */
	unsigned long wb_bg_thresh;

	unsigned long pos_ratio; /* 1/1024 units */
	/* the policy's domain on the wb's own count (mm/dirty-policy.h); NULL in gdtc and mdtc */
	const struct dirty_policy *policy;
	unsigned long setpoint; /* the policy's domain: its setpoint */
	unsigned long foreign;  /* the policy's domain: of wb_dirty, pages in other wbs */
	bool freerun;
	bool dirty_exceeded;
};

/* Pages that could become dirty (free + file cache), the base of the ratio limits. */
unsigned long global_dirtyable_memory(void);
/* dtc->thresh and bg_thresh from dtc->avail and the sysctls (bytes become ratios in a memcg). */
void domain_dirty_limits(struct dirty_throttle_control *dtc);
/* A memcg domain's dirtyable memory: its file pages plus what it may still grow by. */
void mdtc_calc_avail(struct dirty_throttle_control *mdtc, unsigned long filepages,
		     unsigned long headroom);
/* max(thresh, dom->dirty_limit): the limit where pos_ratio reaches 0. */
unsigned long hard_dirty_limit(struct wb_domain *dom, unsigned long thresh);
/* Move dom->dirty_limit toward the domain's thresh, at most once per BANDWIDTH_INTERVAL. */
void domain_update_dirty_limit(struct dirty_throttle_control *dtc, unsigned long now);
/* The wb's share of a domain threshold (thresh or bg_thresh of dtc's domain). */
unsigned long __wb_calc_thresh(struct dirty_throttle_control *dtc, unsigned long thresh);
/* dtc->wb_thresh, wb_bg_thresh and wb_dirty. */
void wb_dirty_limits(struct dirty_throttle_control *dtc);
/* wb's share of a threshold of the global domain / its thresh in its memcg domain. */
unsigned long wb_calc_thresh(struct bdi_writeback *wb, unsigned long thresh);
unsigned long cgwb_calc_thresh(struct bdi_writeback *wb);

static inline unsigned long dirty_freerun_ceiling(unsigned long thresh, unsigned long bg_thresh)
{
	return (thresh + bg_thresh) / 2;
}
/* f(dirty) = 1 + ((setpoint - dirty) / (limit - setpoint))^3, in [0, 2048]. */
long long pos_ratio_polynom(unsigned long setpoint, unsigned long dirty, unsigned long limit);
/* dtc->pos_ratio (and dtc->limit) from the domain and wb figures already in dtc. */
void wb_position_ratio(struct dirty_throttle_control *dtc);
/* Pages a task may dirty before looking again: about the square root of the room left. */
unsigned long dirty_poll_interval(unsigned long dirty, unsigned long thresh);
/* Longest sleep that cannot let the wb's dirty pool run dry. */
long wb_max_pause(struct bdi_writeback *wb, unsigned long wb_dirty);
/* The same at a write bandwidth of bw pages/s. */
long dirty_max_pause(unsigned long bw, unsigned long wb_dirty);
/* Shortest sleep worth taking, and the pages to dirty before the next check. */
long wb_min_pause(struct bdi_writeback *wb, long max_pause, unsigned long task_ratelimit,
		  unsigned long dirty_ratelimit, int *nr_dirtied_pause);
/*
 * The end of wb_min_pause() and its variants: a target of t jiffies and pages (from the
 * stable dirty_ratelimit) shortened so that the task's own rate never pauses past max_pause.
 */
long dirty_pause_fit(long t, long pages, long max_pause, unsigned long task_ratelimit,
		     int *nr_dirtied_pause);

/* Estimators (wb->list_lock held): write bandwidth, and the dirty ratelimit. */
void wb_update_write_bandwidth(struct bdi_writeback *wb, unsigned long elapsed,
			       unsigned long written);
void wb_update_dirty_ratelimit(struct dirty_throttle_control *dtc, unsigned long dirtied,
			       unsigned long elapsed);

/*
 * The write bandwidth a wb completed recently, without a prior: pages written over the
 * last WB_BW_WINDOW estimator intervals (mm/page-writeback-bandwidth.c), for the policies.
 */
/* Start the window afresh (a new wb, or one back from idle). */
void wb_bw_window_reset(struct bdi_writeback *wb, unsigned long now, unsigned long written);
/* Back from idle at now: the window's samples move on by the idle time. */
void wb_bw_window_resume(struct bdi_writeback *wb, unsigned long now);
/* Record a sample at an estimator update. */
void wb_bw_window_add(struct bdi_writeback *wb, unsigned long now, unsigned long written);
/* Pages/s completed over the window up to now; 0 before the first completion. */
unsigned long wb_measured_bandwidth(struct bdi_writeback *wb, unsigned long now);

/* backing-dev.c */
/* A wb's fields, its counters allocated with gfp (-ENOMEM); wb_exit() frees them. */
int wb_init(struct bdi_writeback *wb, struct backing_dev_info *bdi, gfp_t gfp);
void wb_exit(struct bdi_writeback *wb);

/* page-writeback.c: wb->bw_dwork, the bandwidth refresh after writeback goes idle */
void wb_update_bandwidth_workfn(struct work_struct *work);

/* page-writeback-limits.c: the two dirty_throttle_controls of a decision about wb */
void gdtc_init(struct dirty_throttle_control *dtc, struct bdi_writeback *wb);
/* false (no memcg domain: the wb serves the root memcg) */
bool mdtc_init(struct dirty_throttle_control *mdtc, struct bdi_writeback *wb,
	       struct dirty_throttle_control *gdtc);
/* dtc->avail and dtc->dirty (dirty + writeback if include_writeback) from live counters */
void domain_dirty_avail(struct dirty_throttle_control *dtc, bool include_writeback);

/* page-writeback-bandwidth.c: the estimators, and in the throttling path the domain limits too */
void __wb_update_bandwidth(struct dirty_throttle_control *gdtc, struct dirty_throttle_control *mdtc,
			   struct dirty_throttle_control *pdtc, bool update_ratelimit);

/* page-writeback-throttle.c: the decisions of balance_dirty_pages(), apart for their unit tests */
/*
 * With every domain's figures in place (the policy's pdtc may be NULL): pos_ratio of each,
 * and the one the pause follows, the lowest; *ddtc: the lower of the global and memcg ones.
 */
struct dirty_throttle_control *dirty_throttle_select(struct dirty_throttle_control *gdtc,
						     struct dirty_throttle_control *mdtc,
						     struct dirty_throttle_control *pdtc,
						     bool strictlimit,
						     struct dirty_throttle_control **ddtc);
/*
 * How long to sleep for pages_dirtied at task_ratelimit (max_pause at 0, the hard limit);
 * false when too short to sleep. May move *now ahead (a debt carried to the next pause).
 */
bool dirty_pause(unsigned long task_ratelimit, unsigned long pages_dirtied, long min_pause,
		 long max_pause, unsigned long *now, long *pause);

/* backing-dev-cgwb.c */
void cgwb_bdi_unregister(struct backing_dev_info *bdi);
void wb_shutdown(struct bdi_writeback *wb);

#endif
