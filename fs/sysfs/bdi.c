/*
 * /sys/kernel/debug/bdi/MAJ:MIN/stats (the device: sums over its wbs) and wb_stats (one block
 * per wb, the root's first), with Linux 6.10's fields and units (kB, kBps); wb_attribution,
 * cgwb's own, is the opt-in foreign-writeback audit of fs/fs-writeback-audit.c. The counts
 * are the per-CPU counters' sums, not their reads as in Linux: these files are read rarely,
 * and at rest they must agree with /proc/meminfo and memory.stat to the page.
 */
#include <cgwb/pseudofs.h>
#include <cgwb/backing-dev.h>
#include <cgwb/writeback.h>
#include <cgwb/list.h>
#include <cgwb/errno.h>
#include <cgwb/string.h>
#include <cgwb/memcontrol.h>
#include <cgwb/vmstat.h>
#include "../vfs.h"
#include "sysfs.h"

#define K(pages) ((unsigned long)(pages) << (PAGE_SHIFT - 10))

struct wb_sums {
	s64 stat[NR_WB_STAT_ITEMS];
	unsigned long bw;
	unsigned long thresh; /* sum of the wbs' thresholds (Linux 6.10's BdiDirtyThresh) */
	struct wb_lists n;
};

static void collect(struct backing_dev_info *bdi, unsigned long thresh, struct wb_sums *t)
{
	struct bdi_writeback *wb;

	memset(t, 0, sizeof(*t));
	bdi_for_each_wb(wb, bdi) {
		struct wb_lists n;

		for (int i = 0; i < NR_WB_STAT_ITEMS; i++)
			t->stat[i] += wb_stat_sum(wb, i);
		t->bw += wb->avg_write_bandwidth;
		t->thresh += wb_dirty_thresh(wb, thresh);
		wb_count_lists(wb, &n);
		t->n.dirty += n.dirty;
		t->n.io += n.io;
		t->n.more_io += n.more_io;
		t->n.dirty_time += n.dirty_time;
	}
}

static int bdi_stats_show(struct seq_buf *s, void *private)
{
	struct backing_dev_info *bdi = private;
	unsigned long bg, thresh;
	struct wb_sums t;

	global_dirty_limits(&bg, &thresh);
	collect(bdi, thresh, &t);
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
			  K(t.stat[WB_WRITEBACK]), K(t.stat[WB_RECLAIMABLE]), K(t.thresh),
			  K(thresh), K(bg), K(t.stat[WB_DIRTIED]), K(t.stat[WB_WRITTEN]), K(t.bw),
			  t.n.dirty, t.n.io, t.n.more_io, t.n.dirty_time,
			  !list_empty(&bdi->bdi_list), bdi->wb.state);
}

/* One block per wb, blank-line separated (Linux 6.10's wb_stats). */
static int bdi_wb_stats_show(struct seq_buf *s, void *private)
{
	struct backing_dev_info *bdi = private;
	struct bdi_writeback *wb;
	unsigned long bg, thresh;
	int err = 0;

	global_dirty_limits(&bg, &thresh);
	bdi_for_each_wb(wb, bdi) {
		struct wb_lists n;

		if (err)
			continue; /* the iteration must run to the end to drop its reference */
		wb_count_lists(wb, &n);
		err = seq_printf(s,
				 "WbCgIno:           %10u\n"
				 "WbWriteback:       %10lu kB\n"
				 "WbReclaimable:     %10lu kB\n"
				 "WbDirtyThresh:     %10lu kB\n"
				 "WbDirtied:         %10lu kB\n"
				 "WbWritten:         %10lu kB\n"
				 "WbWriteBandwidth:  %10lu kBps\n"
				 "b_dirty:           %10lu\n"
				 "b_io:              %10lu\n"
				 "b_more_io:         %10lu\n"
				 "b_dirty_time:      %10lu\n"
				 "state:             %10lx\n\n",
				 wb_memcg(wb)->css.cgroup->id, K(wb_stat_sum(wb, WB_WRITEBACK)),
				 K(wb_stat_sum(wb, WB_RECLAIMABLE)), K(wb_dirty_thresh(wb, thresh)),
				 K(wb_stat_sum(wb, WB_DIRTIED)), K(wb_stat_sum(wb, WB_WRITTEN)),
				 K(wb->avg_write_bandwidth), n.dirty, n.io, n.more_io, n.dirty_time,
				 wb->state);
	}
	return err;
}

static int bdi_wb_attribution_show(struct seq_buf *s, void *private)
{
	return wb_audit_show(s, private);
}

static int bdi_wb_attribution_store(const char *buf, size_t len, void *private)
{
	if (len && (buf[0] == '0' || buf[0] == '1') && (len == 1 || buf[1] == '\n')) {
		wb_audit_enable(private, buf[0] == '1');
		return 0;
	}
	return -EINVAL;
}

void debugfs_add_bdi(struct backing_dev_info *bdi)
{
	struct pseudo_node *root = pseudo_lookup(pseudo_debugfs_root(), "bdi"), *dir;

	if (!root || !bdi || !bdi->dev_name[0])
		return;
	dir = pseudo_mkdir(root, bdi->dev_name);
	if (!IS_ERR(dir)) {
		pseudo_create_file(dir, "stats", 0444, bdi_stats_show, NULL, bdi);
		pseudo_create_file(dir, "wb_stats", 0444, bdi_wb_stats_show, NULL, bdi);
		pseudo_create_file(dir, "wb_attribution", 0644, bdi_wb_attribution_show,
				   bdi_wb_attribution_store, bdi);
	}
}
