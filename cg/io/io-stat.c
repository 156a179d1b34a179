/*
 * io.stat: bytes and IOs per direction that each io cgroup sent to each disk, as the block
 * layer counts them (block/blk-cgroup.c: as a bio leaves the throttler, for its blkcg and
 * every ancestor). One line per disk it ever sent IO to, in Linux's format; where io.cost
 * is enabled, its cost.* keys follow (cost.vrate on the root only), all of them as Linux
 * shows them with blkcg_debug_stats.
 */
#include "io.h"
#include <cgwb/blkdev.h>

struct io_stat_show_ctx {
	struct blkcg *blkcg;
	struct seq_buf *s;
};

/* One disk's line, if this group ever sent it IO (printed outside the lock: it allocates). */
static void io_stat_show_disk(struct gendisk *disk, void *arg)
{
	struct io_stat_show_ctx *ctx = arg;
	struct blkg_iocost_stat cost;
	struct blkg_iostat st;

	blkcg_iostat_read(ctx->blkcg, disk, &st);
	if (!st.ios[BLKG_IOSTAT_READ] && !st.ios[BLKG_IOSTAT_WRITE] && !st.ios[BLKG_IOSTAT_DISCARD])
		return;
	seq_printf(ctx->s, "%d:%d rbytes=%llu wbytes=%llu rios=%llu wios=%llu dbytes=%llu dios=%llu",
		   disk->major, disk->first_minor, st.bytes[BLKG_IOSTAT_READ],
		   st.bytes[BLKG_IOSTAT_WRITE], st.ios[BLKG_IOSTAT_READ], st.ios[BLKG_IOSTAT_WRITE],
		   st.bytes[BLKG_IOSTAT_DISCARD], st.ios[BLKG_IOSTAT_DISCARD]);
	if (blkcg_iocost_stat(ctx->blkcg, disk, &cost)) {
		if (blkcg_is_root(ctx->blkcg))
			seq_printf(ctx->s, " cost.vrate=%u.%02u", cost.vrate_pct100 / 100,
				   cost.vrate_pct100 % 100);
		seq_printf(ctx->s,
			   " cost.usage=%llu cost.wait=%llu cost.indebt=%llu cost.indelay=%llu",
			   cost.usage_us, cost.wait_us, cost.indebt_us, cost.indelay_us);
	}
	seq_printf(ctx->s, "\n");
}

int blkcg_io_stat_show(struct seq_buf *s, void *private)
{
	struct io_stat_show_ctx ctx = { css_to_blkcg(private), s };

	for_each_disk(io_stat_show_disk, &ctx);
	return 0;
}
