/*
 * blkbench: keep DEPTH bios in flight against a disk and report IOPS and bandwidth. dd is
 * synchronous (one record at a time), so random-read IOPS at depth needs this.
 */
#include <cgwb/blkdev.h>
#include <cgwb/shell.h>
#include <cgwb/sched.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/jiffies.h>
#include "internal.h"

#define BB_MAX_DEPTH 128

struct blkbench;

struct bb_slot {
	struct blkbench *bb;
	char *buf;
};

struct blkbench {
	struct block_device *bdev;
	unsigned int opf, bs, depth;
	bool random;
	u64 rng, next_seq, nr_blocks;
	wait_queue_head_t wq;
	struct bb_slot *done[BB_MAX_DEPTH]; /* completed, not yet reused (ring) */
	unsigned int done_head, done_tail;  /* under lock */
	spinlock_t lock;                    /* irq-safe: completions on any CPU */
	unsigned long errors;
	int first_error;
};

static void bb_endio(struct bio *bio)
{
	struct bb_slot *slot = bio->bi_private;
	struct blkbench *bb = slot->bb;
	unsigned long flags;

	spin_lock_irqsave(&bb->lock, flags);
	if (bio->bi_status) {
		bb->errors++;
		if (!bb->first_error)
			bb->first_error = bio->bi_status;
	}
	bb->done[bb->done_tail++ % BB_MAX_DEPTH] = slot;
	spin_unlock_irqrestore(&bb->lock, flags);
	bio_put(bio);
	wake_up(&bb->wq);
}

static u64 bb_next_block(struct blkbench *bb)
{
	if (!bb->random)
		return bb->next_seq++ % bb->nr_blocks;
	bb->rng ^= bb->rng << 13;
	bb->rng ^= bb->rng >> 7;
	bb->rng ^= bb->rng << 17;
	return bb->rng % bb->nr_blocks;
}

static int bb_submit(struct blkbench *bb, struct bb_slot *slot)
{
	struct bio *bio =
		bio_alloc(bb->bdev, (unsigned short)(bb->bs / PAGE_SIZE), bb->opf, GFP_KERNEL);

	if (!bio)
		return -ENOMEM;
	bio->bi_sector = bb_next_block(bb) * (bb->bs >> SECTOR_SHIFT);
	bio->bi_end_io = bb_endio;
	bio->bi_private = slot;
	for (unsigned int off = 0; off < bb->bs; off += PAGE_SIZE)
		bio_add_page(bio, virt_to_page(slot->buf + off), PAGE_SIZE, 0);
	submit_bio(bio);
	return 0;
}

static struct bb_slot *bb_pop(struct blkbench *bb)
{
	struct bb_slot *slot = NULL;
	unsigned long flags;

	spin_lock_irqsave(&bb->lock, flags);
	if (bb->done_head != bb->done_tail)
		slot = bb->done[bb->done_head++ % BB_MAX_DEPTH];
	spin_unlock_irqrestore(&bb->lock, flags);
	return slot;
}

/* Issue count IOs keeping depth in flight; 0, -EINTR if killed, or a submission error. */
static int bb_run(struct blkbench *bb, struct bb_slot *slots, u64 count)
{
	u64 issued = 0;
	unsigned int inflight = 0;
	int err = 0;
	struct blk_plug plug;

	blk_start_plug(&plug);
	for (unsigned int i = 0; i < bb->depth && issued < count && !err; i++, issued++, inflight++)
		err = bb_submit(bb, &slots[i]);
	blk_finish_plug(&plug);
	while (inflight) {
		wait_event(bb->wq, READ_ONCE(bb->done_head) != READ_ONCE(bb->done_tail));
		/* refill everything that came back in one plug: one notification per batch */
		blk_start_plug(&plug);
		struct bb_slot *slot;
		while ((slot = bb_pop(bb))) {
			inflight--;
			if (err || issued == count)
				continue;
			if (signal_pending(current)) {
				err = -EINTR;
				continue;
			}
			err = bb_submit(bb, slot);
			if (!err) {
				issued++;
				inflight++;
			}
		}
		blk_finish_plug(&plug);
	}
	return err;
}

static int bb_parse(int argc, char **argv, struct blkbench *bb, u64 *count, const char **dev)
{
	int i = 1;
	u64 v;

	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (!strcmp(argv[i], "-q") && !kstrtoull(argv[i + 1], 10, &v) && v &&
		    v <= BB_MAX_DEPTH)
			bb->depth = (unsigned int)v;
		else if (!strcmp(argv[i], "-b") && !parse_size(argv[i + 1], &v) && v >= PAGE_SIZE &&
			 v <= (PAGE_SIZE << 8) && IS_ALIGNED(v, PAGE_SIZE))
			bb->bs = (unsigned int)v;
		else if (!strcmp(argv[i], "-n") && !kstrtoull(argv[i + 1], 10, &v) && v)
			*count = v;
		else
			return -EINVAL;
	}
	if (i + 2 != argc)
		return -EINVAL;
	const char *mode = argv[i];
	bb->random = str_has_prefix(mode, "rand");
	if (bb->random)
		mode += 4;
	if (!strcmp(mode, "read"))
		bb->opf = REQ_OP_READ;
	else if (!strcmp(mode, "write"))
		bb->opf = REQ_OP_WRITE;
	else
		return -EINVAL;
	*dev = argv[i + 1];
	return 0;
}

static void bb_report(const char *mode, const char *dev, const struct blkbench *bb, u64 count, u64 ns)
{
	u64 iops = count * NSEC_PER_SEC / max(ns, 1ULL);
	u64 kbps = count * bb->bs / 1000 * NSEC_PER_SEC / max(ns, 1ULL);

	sh_out("%s %s: bs=%u depth=%u ios=%llu time=%llu.%03llu s iops=%llu bw=%llu.%01llu MB/s\n",
	       mode, dev, bb->bs, bb->depth, count, ns / NSEC_PER_SEC,
	       ns % NSEC_PER_SEC / NSEC_PER_MSEC, iops, kbps / 1000, kbps % 1000 / 100);
}

static int cmd_blkbench(int argc, char **argv)
{
	struct blkbench bb = { .bs = PAGE_SIZE, .depth = 32, .rng = 0x9e3779b97f4a7c15ULL };
	u64 count = 20000;
	const char *dev;

	if (bb_parse(argc, argv, &bb, &count, &dev))
		return sh_usage(argv[0]);
	struct gendisk *disk = get_disk_by_name(str_has_prefix(dev, "/dev/") ? dev + 5 : dev);
	if (!disk)
		return sh_error("blkbench", "%s: no such disk", dev);
	bb.bdev = disk->part0;
	bb.nr_blocks = (disk->capacity << SECTOR_SHIFT) / bb.bs;
	if (!bb.nr_blocks)
		return sh_error("blkbench", "%s: smaller than one block", dev);
	init_waitqueue_head(&bb.wq);
	spin_lock_init(&bb.lock);
	struct bb_slot *slots = kcalloc(bb.depth, sizeof(*slots), GFP_KERNEL);
	int err = slots ? 0 : -ENOMEM;
	for (unsigned int i = 0; i < bb.depth && !err; i++) {
		slots[i] = (struct bb_slot){ &bb, __get_free_pages(GFP_KERNEL, get_order(bb.bs)) };
		if (!slots[i].buf)
			err = -ENOMEM;
		else
			memset(slots[i].buf, 0xa5, bb.bs);
	}
	u64 start = ktime_get_ns();
	if (!err)
		err = bb_run(&bb, slots, count);
	u64 ns = ktime_get_ns() - start;
	for (unsigned int i = 0; slots && i < bb.depth; i++)
		if (slots[i].buf)
			free_pages(slots[i].buf, get_order(bb.bs));
	kfree(slots);
	if (err == -EINTR)
		return SH_STATUS_KILLED;
	if (err)
		return sh_operand_error("blkbench", NULL, dev, err);
	if (bb.errors)
		return sh_error("blkbench", "%s: %lu IOs failed, first: %s", dev, bb.errors,
				errstr(bb.first_error));
	bb_report(argv[argc - 2], dev, &bb, count, ns);
	return 0;
}

DEFINE_SHELL_CMD(blkbench, "blkbench",
		 "blkbench [-q DEPTH] [-b BS] [-n COUNT] "
		 "read|write|randread|randwrite DISK",
		 "measure a disk: IOPS and bandwidth with DEPTH requests in flight", cmd_blkbench, 0);
