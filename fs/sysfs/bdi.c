/*
 * /sys/kernel/debug/bdi/MAJ:MIN/stats: the root wb of a backing device, Linux's fields and
 * units (kB, kBps).
 */
#include <cgwb/pseudofs.h>
#include <cgwb/backing-dev.h>
#include <cgwb/writeback.h>
#include <cgwb/list.h>
#include <cgwb/errno.h>
#include "../vfs.h"
#include "sysfs.h"

#define K(pages) ((unsigned long)(pages) << (PAGE_SHIFT - 10))

static void add_written(struct backing_dev_info *bdi, void *arg)
{
	*(u64 *)arg += (u64)wb_stat(&bdi->wb, WB_WRITTEN);
}

/*
 * The wb's share of the global limit. Linux weighs recent writeout completions (fprop);
 * until the wb_domain's shares exist this uses the wb's part of all pages written.
 */
static unsigned long wb_thresh_estimate(struct bdi_writeback *wb, unsigned long thresh)
{
	u64 total = 0;

	for_each_bdi(add_written, &total);
	if (!total)
		return 0;
	return (unsigned long)((u64)thresh * (u64)wb_stat(wb, WB_WRITTEN) / total);
}

struct wb_lists {
	unsigned long dirty, io, more_io, dirty_time;
};

static void count_lists(struct bdi_writeback *wb, struct wb_lists *n)
{
	spin_lock(&wb->list_lock);
	n->dirty = list_count_nodes(&wb->b_dirty);
	n->io = list_count_nodes(&wb->b_io);
	n->more_io = list_count_nodes(&wb->b_more_io);
	n->dirty_time = list_count_nodes(&wb->b_dirty_time);
	spin_unlock(&wb->list_lock);
}

static int bdi_stats_show(struct seq_buf *s, void *private)
{
	struct backing_dev_info *bdi = private;
	struct bdi_writeback *wb = &bdi->wb;
	unsigned long bg, thresh;
	struct wb_lists n;

	global_dirty_limits(&bg, &thresh);
	count_lists(wb, &n);
	return seq_printf(s,
			  "BdiWriteback:       %10lu kB\n"
			  "BdiReclaimable:     %10lu kB\n"
			  "BdiDirtyThresh:     %10lu kB\n"
			  "DirtyThresh:        %10lu kB\n"
			  "BackgroundThresh:   %10lu kB\n"
			  "BdiDirtied:         %10lu kB\n"
			  "BdiWritten:         %10lu kB\n"
			  "BdiWriteBandwidth:  %10lu kBps\n"
			  "b_dirty:            %10lu\n"
			  "b_io:               %10lu\n"
			  "b_more_io:          %10lu\n"
			  "b_dirty_time:       %10lu\n"
			  "bdi_list:           %10u\n"
			  "state:              %10lx\n",
			  K(wb_stat(wb, WB_WRITEBACK)), K(wb_stat(wb, WB_RECLAIMABLE)),
			  K(wb_thresh_estimate(wb, thresh)), K(thresh), K(bg),
			  K(wb_stat(wb, WB_DIRTIED)), K(wb_stat(wb, WB_WRITTEN)),
			  K(wb->avg_write_bandwidth), n.dirty, n.io, n.more_io, n.dirty_time,
			  !list_empty(&bdi->bdi_list), wb->state);
}

void debugfs_add_bdi(struct backing_dev_info *bdi)
{
	struct pseudo_node *root = pseudo_lookup(pseudo_debugfs_root(), "bdi"), *dir;

	if (!root || !bdi || !bdi->dev_name[0])
		return;
	dir = pseudo_mkdir(root, bdi->dev_name);
	if (!IS_ERR(dir))
		pseudo_create_file(dir, "stats", 0444, bdi_stats_show, NULL, bdi);
}
