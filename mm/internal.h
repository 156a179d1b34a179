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

/* cgwb.c */
void cgwb_bdi_unregister(struct backing_dev_info *bdi);
void wb_shutdown(struct bdi_writeback *wb);

#endif
