/*
 * io.stat: bytes and IOs per direction that each io cgroup sent to each disk, as the block
 * layer counts them (block/blk-cgroup.c: as a bio leaves the throttler, for its blkcg and
 * every ancestor). One line per disk it ever sent IO to, in Linux's format.
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
	struct blkg_iostat st;

	blkcg_iostat_read(ctx->blkcg, disk, &st);
	if (!st.ios[BLKG_IOSTAT_READ] && !st.ios[BLKG_IOSTAT_WRITE] && !st.ios[BLKG_IOSTAT_DISCARD])
		return;
	seq_printf(ctx->s,
		   "%d:%d rbytes=%llu wbytes=%llu rios=%llu wios=%llu dbytes=%llu dios=%llu\n",
		   disk->major, disk->first_minor, st.bytes[BLKG_IOSTAT_READ],
		   st.bytes[BLKG_IOSTAT_WRITE], st.ios[BLKG_IOSTAT_READ], st.ios[BLKG_IOSTAT_WRITE],
		   st.bytes[BLKG_IOSTAT_DISCARD], st.ios[BLKG_IOSTAT_DISCARD]);
}

int blkcg_io_stat_show(struct seq_buf *s, void *private)
{
	struct io_stat_show_ctx ctx = { private, s };

	for_each_disk(io_stat_show_disk, &ctx);
	return 0;
}
