/*
 * io.stat: bytes and IOs per direction that each io cgroup sent to each disk, counted as a
 * bio leaves the throttler for the device (a held bio counts when it is released), charged
 * to the bio's blkcg and every ancestor: like Linux's, a parent's figures include its
 * descendants', and stay when a child goes.
 */
#include "blk-cgroup-internal.h"
#include <cgwb/blkdev.h>
#include <cgwb/bug.h>
#include <cgwb/string.h>

static enum blkg_iostat_type bio_iostat_type(const struct bio *bio)
{
	return op_is_write(bio_op(bio)) ? BLKG_IOSTAT_WRITE : BLKG_IOSTAT_READ;
}

void blkg_account_io(struct blkcg_gq *blkg, const struct bio *bio)
{
	enum blkg_iostat_type type = bio_iostat_type(bio);
	unsigned long flags;

	spin_lock_irqsave(&blkcg_lock, flags);
	for (; blkg; blkg = blkg->parent) {
		blkg->iostat.bytes[type] += bio->bi_size;
		blkg->iostat.ios[type]++;
	}
	spin_unlock_irqrestore(&blkcg_lock, flags);
}

void blkcg_account_io(struct bio *bio)
{
	struct throtl_data *td;

	if (bio_op(bio) == REQ_OP_FLUSH || !blkcg_root)
		return;
	td = blk_throtl_td(bio->bi_bdev->bd_disk);
	if (td)
		blkg_account_io(blkg_lookup_create(bio->bi_blkcg ? bio->bi_blkcg : blkcg_root, td,
						   GFP_NOIO), bio);
}

struct io_stat_show_ctx {
	struct blkcg *blkcg;
	struct seq_buf *s;
};

/* A copy of blkcg's counters on disk (zeros if it never sent the disk IO). */
static void blkg_iostat_read(struct blkcg *blkcg, struct gendisk *disk, struct blkg_iostat *st)
{
	struct throtl_data *td = blk_throtl_td_lookup(disk);
	struct blkcg_gq *blkg;
	unsigned long flags;

	memset(st, 0, sizeof(*st));
	if (!td)
		return;
	spin_lock_irqsave(&blkcg_lock, flags);
	blkg = blkg_lookup(blkcg, td);
	if (blkg)
		*st = blkg->iostat;
	spin_unlock_irqrestore(&blkcg_lock, flags);
}

u64 blkcg_disk_wbytes(struct blkcg *blkcg, struct gendisk *disk)
{
	struct blkg_iostat st;

	blkg_iostat_read(blkcg, disk, &st);
	return st.bytes[BLKG_IOSTAT_WRITE];
}

/* One disk's line, if this group ever sent it IO (printed outside the lock: it allocates). */
static void io_stat_show_disk(struct gendisk *disk, void *arg)
{
	struct io_stat_show_ctx *ctx = arg;
	struct blkg_iostat st;

	blkg_iostat_read(ctx->blkcg, disk, &st);
	if (!st.ios[BLKG_IOSTAT_READ] && !st.ios[BLKG_IOSTAT_WRITE] && !st.ios[BLKG_IOSTAT_DISCARD])
		return;
	seq_printf(ctx->s, "%d:%d rbytes=%llu wbytes=%llu rios=%llu wios=%llu dbytes=%llu dios=%llu\n",
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
