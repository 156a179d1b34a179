/*
 * submit_bio: the one entry of every bio into the block layer. It refuses what the device
 * must never see (past the end, unaligned, writes to a read-only disk), gives the io
 * controller its chance to hold the bio back, and hands the rest to blk-mq.
 */
#include <cgwb/blkdev.h>
#include <cgwb/printk.h>
#include <cgwb/errno.h>
#include <cgwb/jiffies.h>
#include <cgwb/blk-cgroup.h>
#include <cgwb/bug.h>
#include "blk.h"

static int bio_check_ro(struct bio *bio)
{
	struct gendisk *disk = bio->bi_bdev->bd_disk;

	if (!op_is_write(bio_op(bio)) || !disk->read_only)
		return 0;
	pr_err("blk: write to read-only disk %s refused (sector %llu)\n", disk->disk_name,
	       (unsigned long long)bio->bi_sector);
	return -EROFS;
}

static int bio_check_range(struct bio *bio)
{
	struct gendisk *disk = bio->bi_bdev->bd_disk;
	sector_t nr = bio->bi_size >> SECTOR_SHIFT;
	unsigned int lbs_sectors = disk->queue->limits.logical_block_size >> SECTOR_SHIFT;

	if (bio_op(bio) == REQ_OP_FLUSH)
		return bio->bi_size ? -EINVAL : 0;
	if (!bio->bi_size || bio->bi_size & (disk->queue->limits.logical_block_size - 1) ||
	    bio->bi_sector % lbs_sectors)
		return -EINVAL;
	/* splitting cuts between bio_vecs: each must hold whole sectors */
	for (unsigned int i = 0; i < bio->bi_vcnt; i++)
		if (bio->bi_io_vec[i].bv_len & (SECTOR_SIZE - 1))
			return -EINVAL;
	if (bio->bi_sector >= disk->capacity || nr > disk->capacity - bio->bi_sector) {
		pr_warn("blk: %s: access beyond end of device (sector %llu + %llu > %llu)\n",
			disk->disk_name, (unsigned long long)bio->bi_sector, (unsigned long long)nr,
			(unsigned long long)disk->capacity);
		return -EINVAL;
	}
	return 0;
}

/* A disk without a volatile cache needs no flushes: drop them, as Linux does. */
static bool bio_strip_flush(struct bio *bio)
{
	if (bio->bi_bdev->bd_disk->has_flush)
		return false;
	bio->bi_opf &= ~(REQ_PREFLUSH | REQ_FUA);
	return bio_op(bio) == REQ_OP_FLUSH;
}

void submit_bio(struct bio *bio)
{
	int err;

	BUG_ON(!bio->bi_bdev || !bio->bi_bdev->bd_disk);
	if (bio_op(bio) > REQ_OP_FLUSH) {
		bio_io_error(bio, -EOPNOTSUPP);
		return;
	}
	bio->bi_start_ns = ktime_get_ns();
	err = bio_check_ro(bio);
	if (!err)
		err = bio_check_range(bio);
	if (err) {
		bio_io_error(bio, err);
		return;
	}
	if (bio_strip_flush(bio)) {
		bio->bi_status = 0;
		bio_endio(bio);
		return;
	}
	/*
	 * The io controller's single hook: io.max may hold the bio here (it then owns it and
	 * releases it through blk_mq_submit_bio when its budget allows). A bio nobody charged
	 * yet is charged to the submitter's io cgroup.
	 */
	bio_associate_blkcg(bio);
	if (!(bio->bi_flags & BIO_THROTTLED) && blk_throtl_bio(bio))
		return;
	/* then io.cost, as Linux's rq_qos_throttle(): the submitter may wait for its budget */
	blk_iocost_throttle(bio);
	blk_mq_submit_bio(bio);
}
