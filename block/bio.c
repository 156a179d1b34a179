/*
 * Bios: allocation, building, chaining and completion. Completion may run in interrupt
 * context, so everything here that completes a bio is safe there.
 */
#include <cgwb/blkdev.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/completion.h>
#include <cgwb/errno.h>
#include <cgwb/blk-cgroup.h>
#include <cgwb/bug.h>
#include <cgwb/wait.h>
#include <cgwb/gfp.h>
#include "blk.h"

static struct kmem_cache *bio_cache;

/*
 * The reserve, as Linux's bio mempool: writing pages back is how memory gets freed, so
 * writeback must be able to send a bio when memory is short. A blocking allocation that
 * finds no memory takes a reserve bio (room for BIO_MAX_VECS pages, so a caller gets the
 * vectors it asked for) and, with the reserve empty, waits for one to come back; bio_put()
 * returns reserve bios there first (any context).
 */
#define BIO_RESERVE 16

static LIST_HEAD(bio_reserve); /* by bi_list */
static unsigned int bio_reserve_free;
static DEFINE_SPINLOCK(bio_reserve_lock);
static DECLARE_WAIT_QUEUE_HEAD(bio_reserve_wait);

static void bio_reserve_fill(void)
{
	for (int i = 0; i < BIO_RESERVE; i++) {
		struct bio *bio = kmem_cache_zalloc(bio_cache, GFP_KERNEL);
		struct bio_vec *vecs = bio ? kmalloc(sizeof(*vecs) * BIO_MAX_VECS, GFP_KERNEL) : NULL;

		BUG_ON(!vecs); /* at the first bio of the boot: memory is plentiful */
		bio->bi_io_vec = vecs;
		list_add(&bio->bi_list, &bio_reserve);
		bio_reserve_free++;
	}
}

static struct kmem_cache *get_bio_cache(void)
{
	/* first use is in process context (bio_alloc may sleep), so no lock is needed */
	if (unlikely(!bio_cache)) {
		bio_cache = kmem_cache_create("bio", sizeof(struct bio), 8);
		BUG_ON(!bio_cache);
		bio_reserve_fill();
	}
	return bio_cache;
}

static struct bio *bio_reserve_pop(void)
{
	struct bio *bio = NULL;
	unsigned long flags;

	spin_lock_irqsave(&bio_reserve_lock, flags);
	if (!list_empty(&bio_reserve)) {
		bio = list_first_entry(&bio_reserve, struct bio, bi_list);
		list_del(&bio->bi_list);
		bio_reserve_free--;
	}
	spin_unlock_irqrestore(&bio_reserve_lock, flags);
	return bio;
}

/* A reserve bio, waiting for one to come back if none is free. */
static struct bio *bio_reserve_take(void)
{
	struct bio *bio;
	struct bio_vec *vecs;

	while (!(bio = bio_reserve_pop()))
		wait_event(bio_reserve_wait, READ_ONCE(bio_reserve_free) > 0);
	vecs = bio->bi_io_vec;
	memset(bio, 0, sizeof(*bio));
	bio->bi_io_vec = vecs;
	bio->bi_max_vecs = BIO_MAX_VECS;
	bio->bi_flags = BIO_RESERVED;
	return bio;
}

static void bio_reserve_put(struct bio *bio)
{
	unsigned long flags;

	spin_lock_irqsave(&bio_reserve_lock, flags);
	list_add(&bio->bi_list, &bio_reserve);
	bio_reserve_free++;
	spin_unlock_irqrestore(&bio_reserve_lock, flags);
	wake_up(&bio_reserve_wait);
}

/* From the bio cache, vectors included; NULL if memory is short. */
static struct bio *bio_alloc_cache(unsigned short nr_vecs, gfp_t gfp)
{
	struct bio *bio = kmem_cache_zalloc(get_bio_cache(), gfp);

	if (!bio)
		return NULL;
	if (nr_vecs > BIO_INLINE_VECS) {
		bio->bi_io_vec = kmalloc(sizeof(struct bio_vec) * nr_vecs, gfp);
		if (!bio->bi_io_vec) {
			kmem_cache_free(bio_cache, bio);
			return NULL;
		}
		bio->bi_max_vecs = nr_vecs;
	} else {
		bio->bi_io_vec = bio->bi_inline_vecs;
		bio->bi_max_vecs = BIO_INLINE_VECS;
	}
	return bio;
}

/* Never NULL when gfp may sleep (the reserve backs it); NULL from atomic context only. */
struct bio *bio_alloc(struct block_device *bdev, unsigned short nr_vecs, unsigned int opf, gfp_t gfp)
{
	struct bio *bio;

	if (WARN_ON_ONCE(nr_vecs > BIO_MAX_VECS))
		return NULL;
	if (!gfpflags_allow_blocking(gfp))
		bio = bio_alloc_cache(nr_vecs, gfp);
	else if (!(bio = bio_alloc_cache(nr_vecs, gfp | __GFP_NOWARN)))
		bio = bio_reserve_take();
	if (!bio)
		return NULL;
	bio->bi_bdev = bdev;
	bio->bi_opf = opf;
	bio->bi_remaining = 1;
	INIT_LIST_HEAD(&bio->bi_list);
	return bio;
}

void bio_put(struct bio *bio)
{
	if (!bio)
		return;
	WARN_ON_ONCE(bio->bi_next);
	bio_release_blkcg(bio);
	if (bio->bi_flags & BIO_RESERVED) {
		bio_reserve_put(bio);
		return;
	}
	if (bio->bi_io_vec != bio->bi_inline_vecs)
		kfree(bio->bi_io_vec);
	kmem_cache_free(bio_cache, bio);
}

unsigned int bio_add_page(struct bio *bio, struct page *page, unsigned int len, unsigned int off)
{
	if (WARN_ON_ONCE(!len || off + len > PAGE_SIZE))
		return 0;
	if (bio->bi_size > UINT32_MAX - len)
		return 0;
	if (bio->bi_vcnt) {
		/* the same page continued: grow the last segment instead of using a new one */
		struct bio_vec *last = &bio->bi_io_vec[bio->bi_vcnt - 1];
		if (last->bv_page == page && last->bv_offset + last->bv_len == off) {
			last->bv_len += len;
			bio->bi_size += len;
			return len;
		}
	}
	if (bio->bi_vcnt >= bio->bi_max_vecs)
		return 0;
	bio->bi_io_vec[bio->bi_vcnt++] = (struct bio_vec){ page, len, off };
	bio->bi_size += len;
	return len;
}

static void bio_chain_endio(struct bio *child)
{
	struct bio *parent = child->bi_parent;

	/* the first error wins: later successes must not hide it */
	if (child->bi_status)
		__atomic_compare_exchange_n(&parent->bi_status, &(int){ 0 }, child->bi_status,
					    false, __ATOMIC_RELAXED, __ATOMIC_RELAXED);
	bio_put(child);
	bio_endio(parent);
}

void bio_chain(struct bio *child, struct bio *parent)
{
	BUG_ON(child->bi_end_io || child->bi_parent);
	child->bi_parent = parent;
	child->bi_end_io = bio_chain_endio;
	__atomic_fetch_or(&parent->bi_flags, BIO_CHAIN, __ATOMIC_RELAXED);
	__atomic_add_fetch(&parent->bi_remaining, 1, __ATOMIC_RELAXED);
}

/* A chained bio completes when its own IO and every child are done. */
static bool bio_remaining_done(struct bio *bio)
{
	int left;

	if (!(__atomic_load_n(&bio->bi_flags, __ATOMIC_ACQUIRE) & BIO_CHAIN))
		return true;
	left = __atomic_sub_fetch(&bio->bi_remaining, 1, __ATOMIC_ACQ_REL);
	BUG_ON(left < 0);
	return left == 0;
}

void bio_endio(struct bio *bio)
{
	if (!bio_remaining_done(bio))
		return;
	blk_iocost_done_bio(bio);
	if (bio->bi_end_io)
		bio->bi_end_io(bio);
}

static void submit_bio_wait_endio(struct bio *bio)
{
	complete(bio->bi_private);
}

int submit_bio_wait(struct bio *bio)
{
	struct completion done;
	int token;

	init_completion(&done);
	bio->bi_private = &done;
	bio->bi_end_io = submit_bio_wait_endio;
	bio->bi_opf |= REQ_SYNC;
	submit_bio(bio);
	token = io_schedule_prepare(); /* an IO wait for pressure stall information */
	wait_for_completion(&done);    /* a plugged bio is sent as we go to sleep */
	io_schedule_finish(token);
	return bio->bi_status;
}

int blkdev_issue_flush(struct block_device *bdev)
{
	struct bio *bio = bio_alloc(bdev, 0, REQ_OP_FLUSH | REQ_PREFLUSH, GFP_KERNEL);
	int err;

	if (!bio)
		return -ENOMEM;
	err = submit_bio_wait(bio);
	bio_put(bio);
	return err;
}
