/* Shared inside mm/: between the bdi, cgwb and writeback files. */
#ifndef CGWB_MM_INTERNAL_H
#define CGWB_MM_INTERNAL_H

#include <cgwb/backing-dev.h>

/* backing-dev.c */
void wb_init(struct bdi_writeback *wb, struct backing_dev_info *bdi);

/* page-writeback.c: wb->bw_dwork, the bandwidth refresh after writeback goes idle */
void wb_update_bandwidth_workfn(struct work_struct *work);

/* cgwb.c */
void cgwb_bdi_unregister(struct backing_dev_info *bdi);
void wb_shutdown(struct bdi_writeback *wb);

#endif
