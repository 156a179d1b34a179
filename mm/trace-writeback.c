/*
 * The writeback trace events (include/cgwb/trace/writeback.h): their recorders, formatters
 * and system, made from the header's declarations, and the helpers those call.
 */
#include <cgwb/memcontrol.h>
#include <cgwb/jiffies.h>
#include <cgwb/string.h>
#include <cgwb/cgroup.h>
#include <cgwb/sched.h>
#include "internal.h"

#define KBps(x) ((x) << (PAGE_SHIFT - 10))

/* Linux's bdi_dev_name() */
static const char *bdi_dev_name(struct backing_dev_info *bdi)
{
	return bdi ? bdi->dev_name : "(unknown)";
}

static unsigned long wb_cgroup_ino(struct bdi_writeback *wb)
{
	return wb_memcg(wb)->css.cgroup->id;
}

static unsigned long wbc_cgroup_ino(struct writeback_control *wbc)
{
	return wbc->wb ? wb_cgroup_ino(wbc->wb) : 1;
}

/* Linux prints them with __print_symbolic(WB_WORK_REASON) */
static const char *const reason_names[WB_REASON_MAX] = {
	[WB_REASON_BACKGROUND] = "background",
	[WB_REASON_VMSCAN] = "vmscan",
	[WB_REASON_SYNC] = "sync",
	[WB_REASON_PERIODIC] = "periodic",
	[WB_REASON_LAPTOP_TIMER] = "laptop_timer",
	[WB_REASON_FS_FREE_SPACE] = "fs_free_space",
	[WB_REASON_FORKER_THREAD] = "forker_thread",
	[WB_REASON_FOREIGN_FLUSH] = "foreign_flush",
};

const char *wb_reason_name(enum wb_reason reason)
{
	return reason < WB_REASON_MAX ? reason_names[reason] : "?";
}

#define CREATE_TRACE_POINTS
#include <cgwb/trace/writeback.h>
