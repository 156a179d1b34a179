/*
 * Block IO units. A bio is a run of page segments at a sector, for one operation, charged
 * to one io cgroup. Filesystems and the page cache build bios; the block layer merges them
 * into requests for the driver and calls bi_end_io when all of it has completed.
 */
#ifndef CGWB_BIO_H
#define CGWB_BIO_H

#include <cgwb/mm.h>
#include <cgwb/sched.h>

struct task_struct;

struct block_device;
struct blkcg;
struct bio;

#define SECTOR_SHIFT 9
#define SECTOR_SIZE (1U << SECTOR_SHIFT)

enum req_op {
	REQ_OP_READ = 0,
	REQ_OP_WRITE = 1,
	REQ_OP_FLUSH = 2,
};
#define REQ_OP_BITS 4
#define REQ_OP_MASK ((1U << REQ_OP_BITS) - 1)

/* flags, or-ed with the op in bi_opf */
#define REQ_SYNC (1U << 4)       /* someone waits for it (WB_SYNC_ALL, fsync, O_DIRECT) */
#define REQ_FUA (1U << 5)        /* durable on completion */
#define REQ_PREFLUSH (1U << 6)   /* flush the device cache before this write */
#define REQ_BACKGROUND (1U << 7) /* background/periodic writeback */
#define REQ_META (1U << 8)       /* filesystem metadata */
#define REQ_NOMERGE (1U << 9)

static inline enum req_op bio_op_of(unsigned int opf)
{
	return (enum req_op)(opf & REQ_OP_MASK);
}

/* bi_flags */
#define BIO_THROTTLED 0x1 /* already charged by the io controller */
#define BIO_CHAIN 0x2
#define BIO_BLKCG_REF 0x4 /* bi_blkcg holds a css reference (bio_put drops it) */
#define BIO_RESERVED 0x8  /* from the reserve: bio_put gives it back there */

struct bio_vec {
	struct page *bv_page;
	unsigned int bv_len;
	unsigned int bv_offset;
};

typedef void(bio_end_io_t)(struct bio *bio);

#define BIO_INLINE_VECS 8
#define BIO_MAX_VECS 256

struct ioc_gq;

struct bio {
	struct bio *bi_next; /* requests: chained bios */
	struct block_device *bi_bdev;
	unsigned int bi_opf;
	unsigned int bi_flags;
	int bi_status; /* 0 or a negative errno */
	sector_t bi_sector;
	unsigned int bi_size; /* bytes */
	unsigned short bi_vcnt, bi_max_vecs;
	struct bio_vec *bi_io_vec;
	bio_end_io_t *bi_end_io;
	void *bi_private;
	struct blkcg *bi_blkcg; /* io cgroup charged; NULL = the root */
	int bi_remaining;       /* chained children not yet completed */
	struct bio *bi_parent;
	u64 bi_start_ns;          /* submission time */
	u64 bi_iocost_cost;       /* vtime io.cost charged its group at issue, 0 if none */
	struct ioc_gq *bi_iocg;   /* that group: its done_vtime gets the cost back at the end */
	struct list_head bi_list; /* throttling queues, plugs */
	struct bio_vec bi_inline_vecs[BIO_INLINE_VECS];
};

static inline enum req_op bio_op(const struct bio *bio)
{
	return bio_op_of(bio->bi_opf);
}

static inline bool op_is_write(enum req_op op)
{
	return op == REQ_OP_WRITE;
}

/*
 * The file a write bio writes back: its first page's mapping if that page is under
 * writeback (its mapping is stable then: truncation and eviction wait), else NULL.
 */
static inline struct address_space *bio_writeback_mapping(const struct bio *bio)
{
	struct page *page;

	if (!op_is_write(bio_op(bio)) || !bio->bi_vcnt)
		return NULL;
	page = bio->bi_io_vec[0].bv_page;
	return PageWriteback(page) ? READ_ONCE(page->mapping) : NULL;
}

static inline sector_t bio_end_sector(const struct bio *bio)
{
	return bio->bi_sector + (bio->bi_size >> SECTOR_SHIFT);
}

/* A bio for bdev with room for nr_vecs segments (may sleep with GFP_KERNEL). */
struct bio *bio_alloc(struct block_device *bdev, unsigned short nr_vecs, unsigned int opf, gfp_t gfp);
void bio_put(struct bio *bio);
/* Add len bytes of page at off; returns len, or 0 if the bio is full. */
unsigned int bio_add_page(struct bio *bio, struct page *page, unsigned int len, unsigned int off);
/* Make parent complete only after child (and all other chained children) complete. */
void bio_chain(struct bio *child, struct bio *parent);
/* Called by the block layer when the bio is done; status in bi_status. */
void bio_endio(struct bio *bio);
static inline void bio_io_error(struct bio *bio, int err)
{
	bio->bi_status = err;
	bio_endio(bio);
}

/* Queue the bio for IO. Process context (it may wait for a free request slot). */
void submit_bio(struct bio *bio);
/* Submit and wait; returns bi_status (the caller still owns and puts the bio). */
int submit_bio_wait(struct bio *bio);
/* Flush the device's volatile cache; returns 0 or a negative errno. */
int blkdev_issue_flush(struct block_device *bdev);

/*
 * Plugging: while a task holds a plug, its bios are collected and merged, then dispatched
 * together at blk_finish_plug() (or when the task sleeps).
 */
struct blk_plug {
	struct list_head bios;
	unsigned int count;            /* requests the bios would make (merged runs) */
	unsigned int run_bytes;        /* the newest run's size */
	struct task_struct *owner;     /* NULL: nested in an outer plug, does nothing */
	struct task_sleep_flush sleep; /* schedule() sends the bios when the owner sleeps */
};
void blk_start_plug(struct blk_plug *plug);
void blk_finish_plug(struct blk_plug *plug);

#endif
