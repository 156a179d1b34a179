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
	page = compound_head(bio->bi_io_vec[0].bv_page); /* a tail page has no mapping */
	return PageWriteback(page) ? READ_ONCE(page->mapping) : NULL;
}

static inline sector_t bio_end_sector(const struct bio *bio)
{
	return bio->bi_sector + (bio->bi_size >> SECTOR_SHIFT);
}

/**
 * bio_alloc() - allocate a bio
 * @bdev: the device it is for
 * @nr_vecs: room for that many segments (at most BIO_MAX_VECS)
 * @opf: the operation and its flags (REQ_OP_WRITE | REQ_SYNC...)
 * @gfp: how to allocate it
 *
 * An allocation that may block falls back on a reserve of bios when memory is short, and
 * waits for one to come back, so it does not fail: writeback must make progress to free
 * memory.
 *
 * Context: any context with a gfp that does not allow blocking; process context, may
 * sleep, otherwise.
 * Return: the bio, with one reference; NULL only from a gfp that does not allow blocking
 * (or for more than BIO_MAX_VECS segments).
 */
struct bio *bio_alloc(struct block_device *bdev, unsigned short nr_vecs, unsigned int opf, gfp_t gfp);
/**
 * bio_put() - free a bio
 * @bio: the bio, or NULL
 *
 * Drops its io cgroup reference, if it holds one, and gives it back to the reserve it
 * came from or frees it.
 *
 * Context: any context, its own end_io included; never sleeps.
 */
void bio_put(struct bio *bio);
/**
 * bio_add_page() - add a page's bytes to a bio
 * @bio: the bio, not submitted yet
 * @page: the page
 * @len: how many bytes (not 0; @off + @len within the page)
 * @off: where they start in the page
 *
 * Bytes that continue the last segment in the same page grow it instead of using a new
 * segment.
 *
 * Context: any context; never sleeps.
 * Return: @len, or 0 if the bio has no room left (then nothing was added).
 */
unsigned int bio_add_page(struct bio *bio, struct page *page, unsigned int len, unsigned int off);
/**
 * bio_chain() - make a bio complete only after another one
 * @child: the bio whose completion the parent waits for; it has no end_io of its own
 * @parent: the bio that completes once it and all its chained children have
 *
 * The first error of the chain becomes the parent's status; the child is put when it
 * completes.
 *
 * Context: any context, before @child is submitted; never sleeps.
 */
void bio_chain(struct bio *child, struct bio *parent);
/* Called by the block layer when the bio is done; status in bi_status. */
void bio_endio(struct bio *bio);
static inline void bio_io_error(struct bio *bio, int err)
{
	bio->bi_status = err;
	bio_endio(bio);
}

/**
 * submit_bio() - queue a bio for IO
 * @bio: the bio; its end_io is called when it is done, with the status in bi_status
 *
 * A bio that writes to a read-only device, goes past the device's end or asks for an
 * operation the block layer does not know ends at once with an error. A bio nobody charged
 * yet is charged to the submitter's io cgroup; io.max may then hold it (it releases it
 * when the group's budget allows), and io.cost may make the submitter wait for its budget.
 * Inside a plug (blk_start_plug()) it is collected and merged with its neighbours.
 *
 * Context: process context; may sleep (io.cost, a free request slot).
 */
void submit_bio(struct bio *bio);
/**
 * submit_bio_wait() - submit a bio and wait for it
 * @bio: the bio (REQ_SYNC is added); its end_io and bi_private are used here
 *
 * The wait is an IO wait for pressure stall information. The caller still owns the bio
 * and puts it.
 *
 * Context: process context; sleeps.
 * Return: the bio's status: 0 or a negative errno.
 */
int submit_bio_wait(struct bio *bio);
/**
 * blkdev_issue_flush() - flush a device's volatile write cache
 * @bdev: the device
 *
 * Context: process context; sleeps.
 * Return: 0, or a negative errno (-ENOMEM, or the flush's error).
 */
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
/**
 * blk_start_plug() - start collecting the current task's bios
 * @plug: the plug, on the caller's stack
 *
 * Until blk_finish_plug(), the bios the task submits are collected and merged, and
 * dispatched together then, or when the task sleeps. Inside another plug of the task it
 * does nothing: the outer plug collects everything.
 *
 * Context: process context; never sleeps.
 */
void blk_start_plug(struct blk_plug *plug);
/**
 * blk_finish_plug() - dispatch a plug's bios and stop collecting
 * @plug: the plug blk_start_plug() started, by the same task
 *
 * A nested plug does nothing; the outermost one queues every collected bio, merging on
 * the way, and runs each queue once.
 *
 * Context: process context; may sleep (waiting for a free request).
 */
void blk_finish_plug(struct blk_plug *plug);

#endif
