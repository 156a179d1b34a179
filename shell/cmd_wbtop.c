/*
 * wbtop: the writeback contexts live, like top. Each round shows the global domain (dirty
 * and writeback pages, the background and dirty thresholds, the domain's dirty_limit) and
 * one line per wb of every disk: its cgroup, dirty and writeback pages, its dirty threshold
 * (wb_dirty_thresh(): its share of the domain that limits it), write bandwidth,
 * dirty_ratelimit, the last balance_dirty_pages() pause, the rate its io cgroup writes to
 * the disk (io.stat's wbytes, between two rounds) and the inodes on its lists.
 *
 * The figures are gathered first, each wb under the reference bdi_for_each_wb holds, and
 * printed after: printing may sleep on the console or a pipe. io.stat rates need the
 * previous round's counters, matched by (bdi id, wb id); the first round has none ("-").
 */
#include <cgwb/shell.h>
#include <cgwb/backing-dev.h>
#include <cgwb/blk-cgroup.h>
#include <cgwb/memcontrol.h>
#include <cgwb/writeback.h>
#include <cgwb/vmstat.h>
#include <cgwb/jiffies.h>
#include <cgwb/sched.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>

#define WBTOP_MAX_ROWS 64
#define K(pages) ((unsigned long)(pages) << (PAGE_SHIFT - 10))

struct wbtop_row {
	u64 bdi_id;
	unsigned long wb_id;
	char bdi[16];
	char cgroup[48];
	unsigned long dirty, writeback, thresh; /* kB */
	unsigned long bw, ratelimit;            /* kB/s */
	long pause_ms;
	u64 wbytes; /* io.stat of the wb's io cgroup on this disk */
	struct wb_lists n;
};

struct wbtop_round {
	u64 time_ns;
	unsigned long dirty, writeback, bg_thresh, thresh, limit; /* kB */
	unsigned long thresh_pages; /* the global thresh, for wb_dirty_thresh() */
	unsigned int nr, missed;    /* rows filled; wbs past WBTOP_MAX_ROWS */
	struct wbtop_row row[WBTOP_MAX_ROWS];
};

static void fill_row(struct wbtop_row *r, struct bdi_writeback *wb, unsigned long thresh)
{
	struct backing_dev_info *bdi = wb->bdi;

	r->bdi_id = bdi->id;
	r->wb_id = wb->id;
	strlcpy(r->bdi, bdi->dev_name, sizeof(r->bdi));
	cgroup_path(wb_memcg(wb)->css.cgroup, r->cgroup, sizeof(r->cgroup));
	r->dirty = K(wb_stat_sum(wb, WB_RECLAIMABLE));
	r->writeback = K(wb_stat_sum(wb, WB_WRITEBACK));
	r->thresh = K(wb_dirty_thresh(wb, thresh));
	r->bw = K(READ_ONCE(wb->avg_write_bandwidth));
	r->ratelimit = K(READ_ONCE(wb->dirty_ratelimit));
	r->pause_ms = READ_ONCE(wb->last_pause) * 1000 / HZ;
	r->wbytes = bdi->disk ? blkcg_disk_wbytes(wb_blkcg(wb), bdi->disk) : 0;
	wb_count_lists(wb, &r->n);
}

static void collect_bdi(struct backing_dev_info *bdi, void *arg)
{
	struct wbtop_round *rd = arg;
	struct bdi_writeback *wb;

	if (!bdi_cap_writeback(bdi) || !bdi->dev_name[0])
		return;
	bdi_for_each_wb(wb, bdi) { /* runs to the end: it drops its reference there */
		if (rd->nr < WBTOP_MAX_ROWS)
			fill_row(&rd->row[rd->nr++], wb, rd->thresh_pages);
		else
			rd->missed++;
	}
}

static void collect(struct wbtop_round *rd)
{
	unsigned long bg, thresh;

	global_dirty_limits(&bg, &thresh);
	rd->time_ns = ktime_get_ns();
	rd->dirty = K(global_node_page_state_snapshot(NR_FILE_DIRTY));
	rd->writeback = K(global_node_page_state_snapshot(NR_WRITEBACK));
	rd->bg_thresh = K(bg);
	rd->thresh = K(thresh);
	rd->thresh_pages = thresh;
	rd->limit = K(READ_ONCE(global_wb_domain.dirty_limit));
	rd->nr = rd->missed = 0;
	for_each_bdi(collect_bdi, rd);
}

/* io.stat's write rate in kB/s since the previous round, or -1 without one. */
static long io_rate(const struct wbtop_row *r, const struct wbtop_round *prev, u64 now_ns)
{
	u64 ms = (now_ns - prev->time_ns) / NSEC_PER_MSEC;

	for (unsigned int i = 0; ms && i < prev->nr; i++) {
		const struct wbtop_row *p = &prev->row[i];

		if (p->bdi_id == r->bdi_id && p->wb_id == r->wb_id && r->wbytes >= p->wbytes)
			return (long)((r->wbytes - p->wbytes) * 1000 / ms / 1024);
	}
	return -1;
}

static int show(const struct wbtop_round *rd, const struct wbtop_round *prev, bool batch)
{
	u64 up_ms = rd->time_ns / NSEC_PER_MSEC;
	int err;

	/* top's redraw: cursor home, clear the screen */
	err = sh_out("%swbtop up=%llu.%03llus dirty=%lukB writeback=%lukB background=%lukB "
		     "thresh=%lukB limit=%lukB\n",
		     batch ? "" : "\033[H\033[J", up_ms / 1000, up_ms % 1000, rd->dirty,
		     rd->writeback, rd->bg_thresh, rd->thresh, rd->limit);
	if (err >= 0)
		err = sh_out("%-6s %-16s %9s %9s %9s %8s %9s %6s %8s %7s %5s %9s\n", "BDI",
			     "CGROUP", "DIRTY_KB", "WBACK_KB", "THRESH_KB", "BW_KBPS", "RLIM_KBPS",
			     "PAUSE", "IOW_KBPS", "B_DIRTY", "B_IO", "B_MORE_IO");
	for (unsigned int i = 0; err >= 0 && i < rd->nr; i++) {
		const struct wbtop_row *r = &rd->row[i];
		long rate = prev ? io_rate(r, prev, rd->time_ns) : -1;
		char io[24];

		if (rate < 0)
			strlcpy(io, "-", sizeof(io));
		else
			scnprintf(io, sizeof(io), "%ld", rate);
		err = sh_out("%-6s %-16s %9lu %9lu %9lu %8lu %9lu %4ldms %8s %7lu %5lu %9lu\n",
			     r->bdi, r->cgroup, r->dirty, r->writeback, r->thresh, r->bw,
			     r->ratelimit, r->pause_ms, io, r->n.dirty, r->n.io, r->n.more_io);
	}
	if (err >= 0 && rd->missed)
		err = sh_out("(%u more wbs not shown)\n", rd->missed);
	if (err >= 0 && batch)
		err = sh_out("\n");
	return err < 0 ? err : 0;
}

static int parse_args(int argc, char **argv, bool *batch, unsigned long *rounds, u64 *delay_ms)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		u64 v;

		if (!strcmp(a, "-b")) {
			*batch = true;
		} else if (!strcmp(a, "-n") && i + 1 < argc) {
			if (kstrtoull(argv[++i], 10, &v) || !v) {
				sh_error("wbtop", "-n: '%s' is not a positive number", argv[i]);
				return sh_usage("wbtop");
			}
			*rounds = (unsigned long)v;
		} else if (!strcmp(a, "-d") && i + 1 < argc) {
			if (!sh_parse_duration(argv[++i], delay_ms) || !*delay_ms) {
				sh_error("wbtop", "-d: '%s' is not a duration", argv[i]);
				return sh_usage("wbtop");
			}
		} else {
			return sh_usage("wbtop");
		}
	}
	return 0;
}

static int cmd_wbtop(int argc, char **argv)
{
	struct wbtop_round *rd, *prev = NULL;
	unsigned long rounds = 0; /* 0: until Ctrl-C */
	u64 delay_ms = 1000;
	bool batch = false;
	int status;

	status = parse_args(argc, argv, &batch, &rounds, &delay_ms);
	if (status)
		return status;
	rd = kcalloc(2, sizeof(*rd), GFP_KERNEL);
	if (!rd)
		return sh_error("wbtop", "out of memory");
	for (unsigned long n = 1;; n++) {
		struct wbtop_round *cur = &rd[n & 1];

		collect(cur);
		if (show(cur, prev, batch)) {
			status = 1; /* stdout is gone (a closed pipe): nothing to say it on */
			break;
		}
		if (n == rounds)
			break;
		if (msleep_interruptible((unsigned int)min_t(u64, delay_ms, 1U << 30)) ||
		    signal_pending(current)) {
			status = SH_STATUS_KILLED;
			break;
		}
		prev = cur;
	}
	kfree(rd);
	return status;
}
DEFINE_SHELL_CMD(wbtop, "wbtop", "wbtop [-b] [-n ROUNDS] [-d SECONDS]",
		 "writeback live: the dirty limits and each wb's dirty pages, threshold, "
		 "bandwidth, ratelimit, pause, io.stat rate, inode lists (-b: plain lines)",
		 cmd_wbtop, 0);
