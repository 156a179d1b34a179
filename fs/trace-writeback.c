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

#define CREATE_TRACE_POINTS
#include <cgwb/trace/writeback.h>
