/* Shared inside mm/: between the bdi, cgwb and writeback files. */
#ifndef CGWB_MM_INTERNAL_H
#define CGWB_MM_INTERNAL_H

#include <cgwb/backing-dev.h>
#include <cgwb/writeback.h>

/* backing-dev.c */
void wb_init(struct bdi_writeback *wb, struct backing_dev_info *bdi);

/* page-writeback.c: wb->bw_dwork, the bandwidth refresh after writeback goes idle */
void wb_update_bandwidth_workfn(struct work_struct *work);

/* dirty-limits.c: the two dirty_throttle_controls of a decision about wb */
void gdtc_init(struct dirty_throttle_control *dtc, struct bdi_writeback *wb);
/* false (no memcg domain: the wb serves the root memcg) */
bool mdtc_init(struct dirty_throttle_control *mdtc, struct bdi_writeback *wb,
	       struct dirty_throttle_control *gdtc);
/* dtc->avail and dtc->dirty (dirty + writeback if include_writeback) from live counters */
void domain_dirty_avail(struct dirty_throttle_control *dtc, bool include_writeback);

/* wb-bandwidth.c: the estimators, and in the throttling path the domain limits too */
void __wb_update_bandwidth(struct dirty_throttle_control *gdtc, struct dirty_throttle_control *mdtc,
			   struct dirty_throttle_control *pdtc, bool update_ratelimit);

/* dirty-throttle.c: the decisions of balance_dirty_pages(), apart for their unit tests */
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

/* cgwb.c */
void cgwb_bdi_unregister(struct backing_dev_info *bdi);
void wb_shutdown(struct bdi_writeback *wb);

#endif
