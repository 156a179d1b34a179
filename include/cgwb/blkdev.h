/*
 * Block devices: disks registered by drivers, their request queues and statistics.
 * Disks are named vda, vdb, ... with Linux's numbers (major 254, minor 16 per disk).
 */
#ifndef CGWB_BLKDEV_H
#define CGWB_BLKDEV_H

#include <cgwb/bio.h>
#include <cgwb/wait.h>
#include <cgwb/workqueue.h>
#include <cgwb/completion.h>

struct request_queue;
struct gendisk;
struct backing_dev_info;
struct ioc;

/* One request: merged bios for one contiguous range, handed to the driver as a unit. */
struct request {
	struct list_head queuelist;
	struct request_queue *q;
	unsigned int cmd_flags; /* op | REQ_* flags */
	sector_t sector;
	unsigned int nr_bytes;
	unsigned short nr_segments;
	struct bio *bio, *biotail;
	u64 start_ns; /* handed to the driver (this step) */
	u64 alloc_ns; /* allocated: queueing counts in the disk's ticks */
	int tag;
	int status;
	void *driver_data;     /* per-request driver state (preallocated) */
	unsigned int rq_flags; /* RQF_*: block-layer private state */
};

/* rq_flags: the flush sequence of one request (the slot is reused for each step). */
#define RQF_PREFLUSH 0x1   /* a flush still has to go before the data */
#define RQF_POSTFLUSH 0x2  /* a flush still has to go after the data (FUA) */
#define RQF_FLUSH_STEP 0x4 /* the driver is doing one of those flushes now */
#define RQF_STARTED 0x8    /* handed to the driver */

/* What the driver must do for rq now: its op, or a flush during the flush sequence. */
static inline enum req_op req_op(const struct request *rq)
{
	return (rq->rq_flags & RQF_FLUSH_STEP) ? REQ_OP_FLUSH : bio_op_of(rq->cmd_flags);
}

static inline sector_t blk_rq_pos(const struct request *rq)
{
	return rq->sector;
}

/* Bytes the driver moves for rq now (0 during a flush step). */
static inline unsigned int blk_rq_bytes(const struct request *rq)
{
	return req_op(rq) == REQ_OP_FLUSH ? 0 : rq->nr_bytes;
}

/* One physically contiguous piece of a request, for the driver's scatter list. */
struct blk_seg {
	phys_addr_t addr;
	u32 len;
};

struct queue_limits {
	unsigned int logical_block_size; /* bytes, power of two >= 512 */
	unsigned int physical_block_size;
	unsigned int io_min, io_opt;
	unsigned int max_hw_sectors;   /* per request */
	unsigned int max_segments;     /* per request */
	unsigned int max_segment_size; /* bytes */
};

struct blk_mq_ops {
	/* Start rq on the device: 0, or -EBUSY if the device has no room right now. */
	int (*queue_rq)(struct request_queue *q, struct request *rq);
	/* Kick the device after a batch of queue_rq calls (one notification per batch). */
	void (*commit_rqs)(struct request_queue *q);
	/* Optional: the driver's side of the queue, for the report of every task (sched.h). */
	void (*show_state)(struct request_queue *q);
};

/* Linux's /proc/diskstats fields; indexes 0 read, 1 write, 2 discard, 3 flush. */
struct disk_stats {
	unsigned long ios[4];
	unsigned long merges[4];
	unsigned long sectors[4];
	u64 nsecs[4];
	u64 io_ticks_ns;      /* time with at least one request in flight */
	u64 time_in_queue_ns; /* summed over requests */
	unsigned int in_flight[2];
	u64 busy_since_ns;
};

struct request_queue {
	struct gendisk *disk;
	const struct blk_mq_ops *ops;
	void *queuedata;
	struct queue_limits limits;
	unsigned int queue_depth;      /* requests the driver may have in flight */
	unsigned int driver_data_size; /* bytes of rq->driver_data per request */
	spinlock_t lock;
	struct request *requests; /* queue_depth preallocated requests */
	struct list_head free_requests;
	struct list_head dispatch; /* merged, waiting for the device */
	unsigned int nr_in_flight;
	wait_queue_head_t rq_wait;   /* tasks waiting for a free request, served in order */
	unsigned int nr_free;        /* requests on free_requests */
	struct list_head retry_bios; /* bios of a failed merged request, to retry alone */
	struct work_struct retry_work;
	unsigned long nr_dispatched, nr_busy, nr_waits;
	u64 rq_wait_ns;  /* time bios spent waiting for a free request, in all */
	struct ioc *ioc; /* io.cost's controller of the disk, once configured */
};

struct gendisk {
	char disk_name[32];
	int major, first_minor;
	sector_t capacity; /* 512-byte sectors */
	bool read_only;
	bool has_flush; /* volatile write cache that needs flushes */
	struct request_queue *queue;
	struct block_device *part0;
	struct disk_stats stats;
	struct backing_dev_info *bdi;
	void *private_data;
	struct list_head node;
};

struct block_device {
	dev_t bd_dev;
	struct gendisk *bd_disk;
	unsigned int bd_block_size;
	void *bd_mapping; /* the device's page cache (VFS) */
};

/* Linux's numbers for virtio disks: virtio_blk.c gives them to its disks. */
#define VIRTBLK_MAJOR 254
#define VIRTBLK_MINORS 16

/* Driver side. */
/**
 * blk_alloc_disk() - allocate a disk with its request queue and whole-disk block device
 * @ops: the driver's queue operations (->queue_rq() is required)
 * @queue_depth: how many requests the queue preallocates (not 0)
 * @driver_data_size: bytes of driver data after each request (blk_mq_rq_to_pdu())
 * @queuedata: the driver's pointer, in the queue's queuedata
 *
 * The queue starts with the default limits (blk_queue_set_limits() changes them). The
 * driver then names and numbers the disk, sets its capacity and calls add_disk().
 *
 * Context: process context (probe); may sleep.
 * Return: the disk, or NULL if memory ran out.
 */
struct gendisk *blk_alloc_disk(const struct blk_mq_ops *ops, unsigned int queue_depth,
			       unsigned int driver_data_size, void *queuedata);
/**
 * blk_queue_set_limits() - set a queue's limits, made sane
 * @q: the queue, before its disk is added
 * @lim: the device's limits
 *
 * A logical block size that is not a power of two from SECTOR_SIZE to PAGE_SIZE becomes
 * SECTOR_SIZE (with a warning); a request can always hold at least one page and one
 * segment, and a segment a logical block.
 *
 * Context: process context (probe); never sleeps.
 */
void blk_queue_set_limits(struct request_queue *q, const struct queue_limits *lim);
/**
 * add_disk() - make a disk known
 * @disk: the disk from blk_alloc_disk(), named, numbered and sized
 *
 * Lists the disk, then calls the VFS's added() hook (register_disk_hooks()): its block
 * device inode and page cache, its /dev and /sys entries. A disk is never removed; one
 * whose hook failed stays listed.
 *
 * Context: process context (probe); may sleep (the hook).
 * Return: 0; -EINVAL for a disk without a major number; -EEXIST if a disk of that name
 * exists (or the name is empty); or the hook's negative errno.
 */
int add_disk(struct gendisk *disk);
/*
 * What the VFS does when a disk appears (its block device inode and page cache, its /dev
 * and /sys entries): add_disk() calls added(disk) and fails with its error. Registered at
 * start-up, before the drivers probe; without it a disk is only listed.
 */
struct disk_hooks {
	int (*added)(struct gendisk *disk);
	/* a request of disk completed (any context, no lock held): laptop mode's timer */
	void (*io_done)(struct gendisk *disk);
};
/**
 * register_disk_hooks() - register what the VFS does when a disk appears
 * @hooks: the hooks, static; they replace any registered before
 *
 * Context: start-up, before the drivers probe.
 */
void register_disk_hooks(const struct disk_hooks *hooks);
/**
 * blk_mq_end_request() - the driver finished a request
 * @rq: the request
 * @status: 0 or a negative errno
 *
 * Accounts the request's IO (disk statistics, io.cost), frees the request and ends each
 * of its bios with @status. A step of a flush sequence that succeeded sends the next one
 * instead; a merged request that failed may have its bios retried one by one.
 *
 * Context: any context, interrupt context included; must not hold the queue's lock.
 */
void blk_mq_end_request(struct request *rq, int status);
/**
 * blk_mq_run_queue() - dispatch a queue's waiting requests to its driver
 * @q: the queue
 *
 * Calls ->queue_rq() for each request in order until the driver answers -EBUSY (the
 * driver runs the queue again when it has room); a request the driver refuses with
 * another error ends with -EIO.
 *
 * Context: any context; takes the queue's lock (irq-safe), under which ->queue_rq() runs.
 */
void blk_mq_run_queue(struct request_queue *q);

/**
 * blk_rq_map_sg() - map a request's data to segments for the device
 * @rq: the request
 * @segs: filled with its segments
 * @max: room in @segs, at least @rq->nr_segments
 *
 * Physically contiguous pieces are merged up to the queue's max_segment_size.
 *
 * Context: any context; never sleeps.
 * Return: the number of segments used.
 */
unsigned int blk_rq_map_sg(const struct request *rq, struct blk_seg *segs, unsigned int max);

/*
 * After submit_bio's checks and the io controller: split to the device's limits, merge or
 * allocate a request (waiting for one if the queue is full) and dispatch. Process context.
 * The io controller calls this to release bios it held back.
 */
void blk_mq_submit_bio(struct bio *bio);

/*
 * The io controller's hook (cg/io/blk-throttle.c): returns true if it took the bio to release
 * it later through blk_mq_submit_bio().
 */
bool blk_throtl_bio(struct bio *bio);

/* Statistics: a consistent copy with io_ticks brought up to now. */
void disk_stats_read(struct gendisk *disk, struct disk_stats *st);
/**
 * disk_stat_format() - a disk's /sys/block/NAME/stat line
 * @disk: the disk
 * @buf: where to print it
 * @size: room in @buf
 *
 * The 17 fields of Linux's file, from a consistent copy of the statistics with io_ticks
 * brought up to now.
 *
 * Context: any context; never sleeps.
 * Return: the length printed (truncated to @size).
 */
int disk_stat_format(struct gendisk *disk, char *buf, size_t size);
/**
 * diskstats_format() - a disk's /proc/diskstats line
 * @disk: the disk
 * @buf: where to print it
 * @size: room in @buf
 *
 * "MAJ MIN NAME" then the fields of disk_stat_format().
 *
 * Context: any context; never sleeps.
 * Return: the length printed (truncated to @size).
 */
int diskstats_format(struct gendisk *disk, char *buf, size_t size);

/**
 * blk_set_power_cut() - cut the power after a number of writes
 * @nr_writes: how many more requests that write (writes and flush steps) reach a device
 *
 * For crash-consistency tests (cgwb.power_cut=N): after that, no request of any kind
 * reaches a device again.
 *
 * Context: any context; never sleeps.
 */
void blk_set_power_cut(u64 nr_writes);

/* Users. */
/**
 * get_disk_by_name() - find a disk by its name
 * @name: the name ("vda")
 *
 * Context: any context; never sleeps.
 * Return: the disk, or NULL. Disks are never removed: it stays valid.
 */
struct gendisk *get_disk_by_name(const char *name);
/**
 * blkdev_get_by_dev() - find a disk's whole-disk block device by its number
 * @dev: the device number
 *
 * No reference is taken: disks are never removed.
 *
 * Context: any context; never sleeps.
 * Return: the block device, or NULL.
 */
struct block_device *blkdev_get_by_dev(dev_t dev);
/**
 * for_each_disk() - call a function for each disk
 * @fn: called with each disk, in the order they were added, and @arg; it may sleep
 * @arg: passed to @fn
 *
 * Disks are never removed, so the list is walked without its lock.
 *
 * Context: @fn's.
 */
void for_each_disk(void (*fn)(struct gendisk *, void *), void *arg);
static inline sector_t bdev_nr_sectors(const struct block_device *bdev)
{
	return bdev->bd_disk->capacity;
}
static inline unsigned int bdev_logical_block_size(const struct block_device *bdev)
{
	return bdev->bd_disk->queue->limits.logical_block_size;
}
static inline bool bdev_read_only(const struct block_device *bdev)
{
	return bdev->bd_disk->read_only;
}

/*
 * Raw, synchronous IO on a whole device at byte offsets (block/blkdev_rw.c): the
 * O_DIRECT path of /dev/vdX, and whatever needs the device without its page cache.
 * Aligned transfers (offset, length and buffer on logical blocks) go straight from the
 * caller's pages; others bounce through a buffer, writes doing read-modify-write of the
 * edge blocks. BLKDEV_RW_DIRECT refuses unaligned transfers with -EINVAL (O_DIRECT). Reads
 * stop at the end of the device (short count); writes past it return -ENOSPC. The buffer
 * must be kernel memory (virt_to_page works on it).
 *
 * The flags have the values of the open flags that mean the same, so a file's f_flags can
 * be passed as they are (other bits are ignored): O_DIRECT, O_DSYNC (and so O_SYNC) for
 * FUA writes, and O_SYNC's own bit for REQ_SYNC.
 */
#define BLKDEV_RW_DIRECT 040000 /* O_DIRECT */
#define BLKDEV_RW_FUA 010000    /* O_DSYNC: writes durable on return */
#define BLKDEV_RW_SYNC 04000000 /* __O_SYNC, the bit O_SYNC adds: REQ_SYNC on the bios */
/**
 * blkdev_read_at() - read a device at a byte offset, synchronously
 * @bdev: the device
 * @buf: kernel memory to read into
 * @len: how many bytes
 * @pos: the byte offset
 * @flags: BLKDEV_RW_* (a file's f_flags will do)
 *
 * Context: process context; sleeps.
 * Return: the bytes read (short at the end of the device, 0 past it); or -EINVAL for a
 * negative @pos or an unaligned BLKDEV_RW_DIRECT transfer, -ENOMEM, or the IO's error.
 */
ssize_t blkdev_read_at(struct block_device *bdev, void *buf, size_t len, loff_t pos,
		       unsigned int flags);
/**
 * blkdev_write_at() - write a device at a byte offset, synchronously
 * @bdev: the device
 * @buf: kernel memory to write from
 * @len: how many bytes
 * @pos: the byte offset
 * @flags: BLKDEV_RW_* (a file's f_flags will do)
 *
 * Context: process context; sleeps.
 * Return: the bytes written (short at the end of the device); or -EINVAL for a negative
 * @pos or an unaligned BLKDEV_RW_DIRECT transfer, -EROFS on a read-only device, -ENOSPC
 * at or past its end, -ENOMEM, or the IO's error.
 */
ssize_t blkdev_write_at(struct block_device *bdev, const void *buf, size_t len, loff_t pos,
			unsigned int flags);

/*
 * A batch of synchronous IO (block/blkdev_rw.c): bios built straight from kernel memory for
 * runs of sectors anywhere on the device, under one plug, waited for together. The raw
 * device path above and a file system's direct IO (its runs of blocks) use it.
 */
struct blk_batch {
	int pending; /* bios not back yet, plus the submitter's count */
	int status;  /* first error */
	struct completion done;
	struct blk_plug plug;
};
/**
 * blk_batch_start() - begin a batch (and plug the submitter's queue)
 * @b: the batch, usually on the caller's stack
 *
 * Context: process context.
 */
void blk_batch_start(struct blk_batch *b);
/**
 * blk_batch_add() - submit IO between a buffer and a run of sectors, as part of a batch
 * @b: the batch
 * @bdev: the device
 * @opf: REQ_OP_READ or REQ_OP_WRITE and REQ_* flags
 * @buf: kernel memory (direct map or vmalloc), aligned to the device's logical blocks
 * @len: bytes, a multiple of the logical block size
 * @sector: the first sector
 *
 * The bios are charged to the caller's io cgroup, as any bio it submits.
 *
 * Context: process context, between blk_batch_start() and blk_batch_finish(); may sleep.
 * Return: 0, or -ENOMEM when a bio could not be had (what was submitted still counts).
 */
int blk_batch_add(struct blk_batch *b, struct block_device *bdev, unsigned int opf, char *buf,
		  size_t len, sector_t sector);
/**
 * blk_batch_finish() - unplug, and wait for every bio of a batch
 * @b: the batch
 * @err: an error of the caller's to report if no bio failed first (0 for none)
 *
 * Context: process context; sleeps (an IO wait).
 * Return: the first error among the bios and @err, or 0.
 */
int blk_batch_finish(struct blk_batch *b, int err);

/* Change the size of the device's buffers: SECTOR_SIZE to PAGE_SIZE, a power of two. */
int set_blocksize(struct block_device *bdev, unsigned int size);

#endif
