/*
 * The disk registry: drivers allocate a gendisk with its request queue, set its limits and
 * add it; users find disks by name or number.
 */
#include "blk.h"
#include <cgwb/fs.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/mutex.h>
#include <cgwb/printk.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include <cgwb/sched.h>
#include <cgwb/jiffies.h>

static LIST_HEAD(all_disks);
static struct show_state_hook blk_show_state_hook; /* below */
static DEFINE_SPINLOCK(disks_lock);

static const struct queue_limits default_limits = {
	.logical_block_size = SECTOR_SIZE,
	.physical_block_size = SECTOR_SIZE,
	.max_hw_sectors = 2560, /* Linux's default max_sectors: 1280 KiB */
	.max_segments = 128,
	.max_segment_size = 65536,
};

struct gendisk *blk_alloc_disk(const struct blk_mq_ops *ops, unsigned int queue_depth,
			       unsigned int driver_data_size, void *queuedata)
{
	struct gendisk *disk = kzalloc(sizeof(*disk), GFP_KERNEL);
	struct request_queue *q = kzalloc(sizeof(*q), GFP_KERNEL);
	struct block_device *bdev = kzalloc(sizeof(*bdev), GFP_KERNEL);

	BUG_ON(!ops || !ops->queue_rq || !queue_depth);
	if (!disk || !q || !bdev)
		goto fail;
	q->disk = disk;
	q->ops = ops;
	q->queuedata = queuedata;
	q->limits = default_limits;
	q->queue_depth = queue_depth;
	q->driver_data_size = driver_data_size;
	spin_lock_init(&q->lock);
	q->lock.name = "request_queue";
	INIT_LIST_HEAD(&q->free_requests);
	INIT_LIST_HEAD(&q->dispatch);
	init_waitqueue_head(&q->rq_wait);
	if (blk_mq_init_requests(q))
		goto fail; /* requests already made are leaked: boot-time, out of memory anyway */
	disk->queue = q;
	disk->part0 = bdev;
	INIT_LIST_HEAD(&disk->node);
	bdev->bd_disk = disk;
	return disk;
fail:
	kfree(disk);
	kfree(q);
	kfree(bdev);
	return NULL;
}

void blk_queue_set_limits(struct request_queue *q, const struct queue_limits *lim)
{
	struct queue_limits l = *lim;

	if (WARN_ON_ONCE(!is_power_of_2(l.logical_block_size) ||
			 l.logical_block_size < SECTOR_SIZE || l.logical_block_size > PAGE_SIZE))
		l.logical_block_size = SECTOR_SIZE;
	if (l.physical_block_size < l.logical_block_size)
		l.physical_block_size = l.logical_block_size;
	/* a page must always fit one request, or nothing could ever be sent */
	l.max_hw_sectors = max(l.max_hw_sectors, (unsigned int)(PAGE_SIZE >> SECTOR_SHIFT));
	l.max_segments = max(l.max_segments, 1u);
	l.max_segment_size = max(l.max_segment_size, l.logical_block_size);
	q->limits = l;
}

static const struct disk_hooks *disk_hooks;

void register_disk_hooks(const struct disk_hooks *hooks)
{
	disk_hooks = hooks;
}

void blk_disk_io_done(struct gendisk *disk)
{
	if (disk_hooks && disk_hooks->io_done)
		disk_hooks->io_done(disk);
}

int add_disk(struct gendisk *disk)
{
	unsigned long flags;
	int err;

	if (WARN_ON_ONCE(!disk->major)) /* the driver numbers its disks */
		return -EINVAL;
	if (!disk->disk_name[0] || get_disk_by_name(disk->disk_name))
		return -EEXIST;
	disk->part0->bd_dev = MKDEV(disk->major, disk->first_minor);
	disk->part0->bd_block_size = disk->queue->limits.logical_block_size;
	spin_lock_irqsave(&disks_lock, flags);
	if (list_empty(&all_disks))
		register_show_state_hook(&blk_show_state_hook);
	list_add_tail(&disk->node, &all_disks);
	spin_unlock_irqrestore(&disks_lock, flags);
	err = disk_hooks && disk_hooks->added ? disk_hooks->added(disk) : 0;
	if (err)
		pr_err("blk: %s: the VFS could not take it (%d)\n", disk->disk_name, err);
	return err;
}

struct gendisk *get_disk_by_name(const char *name)
{
	struct gendisk *disk, *found = NULL;
	unsigned long flags;

	spin_lock_irqsave(&disks_lock, flags);
	list_for_each_entry(disk, &all_disks, node) {
		if (!strcmp(disk->disk_name, name)) {
			found = disk;
			break;
		}
	}
	spin_unlock_irqrestore(&disks_lock, flags);
	return found;
}

struct block_device *blkdev_get_by_dev(dev_t dev)
{
	struct gendisk *disk;
	struct block_device *found = NULL;
	unsigned long flags;

	spin_lock_irqsave(&disks_lock, flags);
	list_for_each_entry(disk, &all_disks, node) {
		if (disk->part0->bd_dev == dev) {
			found = disk->part0;
			break;
		}
	}
	spin_unlock_irqrestore(&disks_lock, flags);
	return found;
}

/* Disks are never removed, so fn may sleep: the list is walked without the lock. */
void for_each_disk(void (*fn)(struct gendisk *, void *), void *arg)
{
	struct gendisk *disk;

	list_for_each_entry(disk, &all_disks, node)
		fn(disk, arg);
}

/* The report of every task (sched.h): each disk's requests, whether tasks wait for IO. */
static void blk_show_queue(struct gendisk *disk, void *unused)
{
	struct request_queue *q = disk->queue;
	u64 now = ktime_get_ns();
	unsigned int dispatch = 0;
	struct request *rq;

	(void)unused;
	list_for_each_entry(rq, &q->dispatch, queuelist) /* racy: a report, not a decision */
		dispatch++;
	pr_err("  %s: %u in flight, %u free of %u, %u waiting to go, %s for a free one\n",
	       disk->disk_name, q->nr_in_flight, q->nr_free, q->queue_depth, dispatch,
	       list_empty(&q->rq_wait.head) ? "nobody waits" : "tasks wait");
	for (unsigned int i = 0; i < q->queue_depth; i++) {
		rq = &q->requests[i];
		if (rq->rq_flags & RQF_STARTED)
			pr_err("    request %u: op %u, sector %llu, %u bytes, at the driver for "
			       "%llu ms\n",
			       i, rq->cmd_flags & REQ_OP_MASK, (unsigned long long)rq->sector,
			       rq->nr_bytes, (now - rq->start_ns) / NSEC_PER_MSEC);
	}
	if (q->ops->show_state)
		q->ops->show_state(q);
}

static void blk_show_state(void)
{
	pr_err("block: the disks' queues\n");
	for_each_disk(blk_show_queue, NULL);
}

static struct show_state_hook blk_show_state_hook = { .show = blk_show_state };
