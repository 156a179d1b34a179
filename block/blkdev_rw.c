/*
 * Synchronous raw IO on a whole block device at byte offsets. Block-aligned transfers are
 * built straight from the caller's pages as bios of up to BIO_MAX_VECS pages, submitted
 * under one plug (so they merge up to the device's limits and go down together) and waited
 * for as a batch (struct blk_batch, which a file system's direct IO uses for its runs of
 * blocks too). Anything else bounces through a bounce buffer.
 */
#include <cgwb/vmalloc.h>
#include "blk.h"
#include <cgwb/completion.h>
#include <cgwb/file.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>

#define BOUNCE_ORDER 4 /* 64 KiB per bounced step */
#define BOUNCE_BYTES (PAGE_SIZE << BOUNCE_ORDER)

/* The first error is kept; completions on any CPU may race to set it. */
static void batch_put(struct blk_batch *b, int status)
{
	int none = 0;

	if (status)
		__atomic_compare_exchange_n(&b->status, &none, status, false, __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED);
	if (__atomic_sub_fetch(&b->pending, 1, __ATOMIC_ACQ_REL) == 0)
		complete(&b->done);
}

/* Atomic as batch_put: a completion may drop the count while we raise it. */
static void batch_get(struct blk_batch *b)
{
	__atomic_add_fetch(&b->pending, 1, __ATOMIC_RELAXED);
}

static void batch_endio(struct bio *bio)
{
	struct blk_batch *b = bio->bi_private;
	int status = bio->bi_status;

	bio_put(bio);
	batch_put(b, status);
}

static struct bio *batch_bio(struct block_device *bdev, unsigned int opf, sector_t sector,
			     size_t left, struct blk_batch *b)
{
	size_t pages = DIV_ROUND_UP(left, PAGE_SIZE) + 1;
	struct bio *bio =
		bio_alloc(bdev, (unsigned short)min(pages, (size_t)BIO_MAX_VECS), opf, GFP_NOIO);

	if (!bio)
		return NULL;
	bio->bi_sector = sector;
	bio->bi_end_io = batch_endio;
	bio->bi_private = b;
	batch_get(b);
	return bio;
}

void blk_batch_start(struct blk_batch *b)
{
	b->pending = 1; /* the submitter's, dropped by blk_batch_finish() */
	b->status = 0;
	init_completion(&b->done);
	blk_start_plug(&b->plug);
}

int blk_batch_add(struct blk_batch *b, struct block_device *bdev, unsigned int opf, char *buf,
		  size_t len, sector_t sector)
{
	struct bio *bio = NULL;

	while (len) {
		unsigned int off = (uintptr_t)buf & (PAGE_SIZE - 1);
		unsigned int n = (unsigned int)min(len, PAGE_SIZE - off);
		if (!bio && !(bio = batch_bio(bdev, opf, sector, len, b)))
			return -ENOMEM;
		if (bio_add_page(bio, kvaddr_to_page(buf), n, off) != n) {
			submit_bio(bio); /* full: the next round starts a new one */
			bio = NULL;
			continue;
		}
		buf += n;
		len -= n;
		sector += n >> SECTOR_SHIFT;
	}
	if (bio)
		submit_bio(bio);
	return 0;
}

int blk_batch_finish(struct blk_batch *b, int err)
{
	int token;

	blk_finish_plug(&b->plug);
	batch_put(b, err);
	token = io_schedule_prepare(); /* an IO wait (Linux's blk_io_schedule()) */
	wait_for_completion(&b->done);
	io_schedule_finish(token);
	return b->status;
}

/* Move len bytes (block-aligned) between buf and the device at pos, waiting for all of it. */
static int blkdev_rw_aligned(struct block_device *bdev, unsigned int opf, char *buf, size_t len,
			     loff_t pos)
{
	struct blk_batch b;

	blk_batch_start(&b);
	return blk_batch_finish(&b, blk_batch_add(&b, bdev, opf, buf, len,
						  (sector_t)pos >> SECTOR_SHIFT));
}

BUILD_BUG_ON(BLKDEV_RW_DIRECT != O_DIRECT);
BUILD_BUG_ON(BLKDEV_RW_FUA != O_DSYNC);
BUILD_BUG_ON((BLKDEV_RW_SYNC | BLKDEV_RW_FUA) != O_SYNC);

static unsigned int rw_opf(enum req_op op, unsigned int flags)
{
	unsigned int opf = op;

	if (flags & (BLKDEV_RW_SYNC | BLKDEV_RW_DIRECT))
		opf |= REQ_SYNC;
	if (op == REQ_OP_WRITE && (flags & BLKDEV_RW_FUA))
		opf |= REQ_FUA;
	return opf;
}

static bool rw_aligned(struct block_device *bdev, const void *buf, size_t len, loff_t pos)
{
	unsigned int lbs = bdev_logical_block_size(bdev);

	return IS_ALIGNED((u64)pos, lbs) && IS_ALIGNED(len, lbs) && IS_ALIGNED((uintptr_t)buf, lbs);
}

static u64 bdev_bytes(struct block_device *bdev)
{
	return (u64)bdev_nr_sectors(bdev) << SECTOR_SHIFT;
}

/* Unaligned read: whole blocks into the bounce buffer, the wanted part out of it. */
static int blkdev_read_bounce(struct block_device *bdev, char *buf, size_t len, loff_t pos,
			      unsigned int opf, char *bounce)
{
	unsigned int lbs = bdev_logical_block_size(bdev);

	while (len) {
		u64 start = round_down((u64)pos, lbs);
		size_t skip = (size_t)((u64)pos - start);
		size_t n = min(len, BOUNCE_BYTES - skip);
		size_t span = round_up(skip + n, lbs);
		int err = blkdev_rw_aligned(bdev, opf, bounce, span, (loff_t)start);
		if (err)
			return err;
		memcpy(buf, bounce + skip, n);
		buf += n;
		pos += (loff_t)n;
		len -= n;
	}
	return 0;
}

/* Unaligned write: read the partial edge blocks, patch them, write the whole blocks back. */
static int blkdev_write_bounce(struct block_device *bdev, const char *buf, size_t len, loff_t pos,
			       unsigned int opf, char *bounce)
{
	unsigned int lbs = bdev_logical_block_size(bdev);
	unsigned int ropf = REQ_OP_READ | (opf & REQ_SYNC);

	while (len) {
		u64 start = round_down((u64)pos, lbs);
		size_t skip = (size_t)((u64)pos - start);
		size_t n = min(len, BOUNCE_BYTES - skip);
		size_t span = round_up(skip + n, lbs);
		int err = 0;
		if (skip)
			err = blkdev_rw_aligned(bdev, ropf, bounce, lbs, (loff_t)start);
		if (!err && (skip + n) % lbs && (span > lbs || !skip))
			err = blkdev_rw_aligned(bdev, ropf, bounce + span - lbs, lbs,
						(loff_t)(start + span - lbs));
		if (err)
			return err;
		memcpy(bounce + skip, buf, n);
		err = blkdev_rw_aligned(bdev, opf, bounce, span, (loff_t)start);
		if (err)
			return err;
		buf += n;
		pos += (loff_t)n;
		len -= n;
	}
	return 0;
}

static ssize_t blkdev_rw(struct block_device *bdev, enum req_op op, char *buf, size_t len,
			 loff_t pos, unsigned int flags)
{
	unsigned int opf = rw_opf(op, flags);
	int err;

	if (rw_aligned(bdev, buf, len, pos)) {
		err = blkdev_rw_aligned(bdev, opf, buf, len, pos);
		return err ? err : (ssize_t)len;
	}
	if (flags & BLKDEV_RW_DIRECT)
		return -EINVAL;
	char *bounce = __get_free_pages(GFP_KERNEL, BOUNCE_ORDER);
	if (!bounce)
		return -ENOMEM;
	if (op == REQ_OP_WRITE)
		err = blkdev_write_bounce(bdev, buf, len, pos, opf, bounce);
	else
		err = blkdev_read_bounce(bdev, buf, len, pos, opf, bounce);
	free_pages(bounce, BOUNCE_ORDER);
	return err ? err : (ssize_t)len;
}

ssize_t blkdev_read_at(struct block_device *bdev, void *buf, size_t len, loff_t pos,
		       unsigned int flags)
{
	u64 size = bdev_bytes(bdev);

	if (pos < 0)
		return -EINVAL;
	if ((flags & BLKDEV_RW_DIRECT) && !rw_aligned(bdev, buf, len, pos))
		return -EINVAL;
	if ((u64)pos >= size || !len)
		return 0;
	len = (size_t)min((u64)len, size - (u64)pos);
	return blkdev_rw(bdev, REQ_OP_READ, buf, len, pos, flags);
}

ssize_t blkdev_write_at(struct block_device *bdev, const void *buf, size_t len, loff_t pos,
			unsigned int flags)
{
	u64 size = bdev_bytes(bdev);

	if (pos < 0)
		return -EINVAL;
	if ((flags & BLKDEV_RW_DIRECT) && !rw_aligned(bdev, buf, len, pos))
		return -EINVAL;
	if (bdev_read_only(bdev))
		return -EROFS;
	if (!len)
		return 0;
	if ((u64)pos >= size)
		return -ENOSPC;
	len = (size_t)min((u64)len, size - (u64)pos);
	return blkdev_rw(bdev, REQ_OP_WRITE, (char *)buf, len, pos, flags);
}
