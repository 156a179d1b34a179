/*
 * Segments, merging and splitting. A segment is a physically contiguous piece of memory the
 * device moves in one descriptor; adjacent bio_vecs that touch in physical memory share one
 * (up to max_segment_size). Requests grow by back or front merges of contiguous bios up to
 * max_hw_sectors and max_segments; a bio that alone exceeds them is split into chained
 * children that fit.
 */
#include "blk.h"
#include <cgwb/slab.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>

static phys_addr_t bvec_phys(const struct bio_vec *bv)
{
	return page_to_phys(bv->bv_page) + bv->bv_offset;
}

/* Where a segment walk stands: segments so far, end of the last one, and its length. */
struct seg_walk {
	unsigned int n;
	phys_addr_t end;
	u32 last_len;
};

/*
 * Append one piece of memory to the walk (and to segs, unless NULL). It extends the last
 * segment when it starts where that one ends and there is room. Returns false if more
 * than max segments would be needed (the walk is then partly updated).
 */
static bool seg_add(struct seg_walk *w, phys_addr_t addr, u32 len, const struct queue_limits *lim,
		    struct blk_seg *segs, unsigned int max)
{
	while (len) {
		u32 take;
		if (w->n && addr == w->end && w->last_len < lim->max_segment_size) {
			take = min(len, lim->max_segment_size - w->last_len);
			w->last_len += take;
			if (segs)
				segs[w->n - 1].len += take;
		} else {
			if (w->n == max)
				return false;
			take = min(len, lim->max_segment_size);
			w->last_len = take;
			if (segs)
				segs[w->n] = (struct blk_seg){ addr, take };
			w->n++;
		}
		addr += take;
		len -= take;
		w->end = addr;
	}
	return true;
}

static bool bio_map_segs(const struct bio *bio, const struct queue_limits *lim, struct seg_walk *w,
			 struct blk_seg *segs, unsigned int max)
{
	for (unsigned int i = 0; i < bio->bi_vcnt; i++)
		if (!seg_add(w, bvec_phys(&bio->bi_io_vec[i]), bio->bi_io_vec[i].bv_len, lim, segs,
			     max))
			return false;
	return true;
}

unsigned int bio_nr_segments(const struct bio *bio, const struct queue_limits *lim)
{
	struct seg_walk w = { 0 };

	bio_map_segs(bio, lim, &w, NULL, UINT32_MAX);
	return w.n;
}

unsigned int blk_rq_map_sg(const struct request *rq, struct blk_seg *segs, unsigned int max)
{
	const struct queue_limits *lim = &rq->q->limits;
	struct seg_walk w = { 0 };

	for (const struct bio *bio = rq->bio; bio; bio = bio->bi_next)
		BUG_ON(!bio_map_segs(bio, lim, &w, segs, max));
	BUG_ON(w.n > rq->nr_segments);
	return w.n;
}

/* Do the two pieces touch, and would even all of both fit one segment? Then they share it. */
static bool segs_join(const struct bio *front, const struct bio *back, unsigned int total,
		      const struct queue_limits *lim)
{
	const struct bio_vec *a = &front->bi_io_vec[front->bi_vcnt - 1];
	const struct bio_vec *b = &back->bi_io_vec[0];

	return bvec_phys(a) + a->bv_len == bvec_phys(b) && total <= lim->max_segment_size;
}

#define REQ_MERGE_MASK (REQ_OP_MASK | REQ_FUA | REQ_PREFLUSH | REQ_NOMERGE)

/* Same kind of IO, mergeable at all, and charged to the same io cgroup. */
bool blk_rq_merge_ok(const struct request *rq, const struct bio *bio)
{
	if (rq->rq_flags & RQF_STARTED)
		return false;
	if ((rq->cmd_flags & REQ_MERGE_MASK) != (bio->bi_opf & REQ_MERGE_MASK))
		return false;
	if (bio->bi_opf & (REQ_NOMERGE | REQ_PREFLUSH | REQ_FUA))
		return false;
	if (bio_op(bio) == REQ_OP_FLUSH)
		return false;
	return rq->bio->bi_blkcg == bio->bi_blkcg && rq->bio->bi_bdev == bio->bi_bdev;
}

enum blk_merge blk_try_merge(const struct request *rq, const struct bio *bio, unsigned int bio_segs)
{
	const struct queue_limits *lim = &rq->q->limits;
	unsigned int total = rq->nr_bytes + bio->bi_size;
	unsigned int segs = rq->nr_segments + bio_segs;

	if (!blk_rq_merge_ok(rq, bio) || total < rq->nr_bytes ||
	    (total >> SECTOR_SHIFT) > lim->max_hw_sectors)
		return BLK_MERGE_NONE;
	if (rq->sector + (rq->nr_bytes >> SECTOR_SHIFT) == bio->bi_sector) {
		if (segs_join(rq->biotail, bio, total, lim))
			segs--;
		return segs <= lim->max_segments ? BLK_MERGE_BACK : BLK_MERGE_NONE;
	}
	if (bio_end_sector(bio) == rq->sector) {
		if (segs_join(bio, rq->bio, total, lim))
			segs--;
		return segs <= lim->max_segments ? BLK_MERGE_FRONT : BLK_MERGE_NONE;
	}
	return BLK_MERGE_NONE;
}

void blk_rq_apply_merge(struct request *rq, struct bio *bio, enum blk_merge how)
{
	const struct queue_limits *lim = &rq->q->limits;
	unsigned int total = rq->nr_bytes + bio->bi_size;
	unsigned int segs = rq->nr_segments + bio_nr_segments(bio, lim);

	if (how == BLK_MERGE_BACK) {
		if (segs_join(rq->biotail, bio, total, lim))
			segs--;
		rq->biotail->bi_next = bio;
		rq->biotail = bio;
	} else {
		BUG_ON(how != BLK_MERGE_FRONT);
		if (segs_join(bio, rq->bio, total, lim))
			segs--;
		bio->bi_next = rq->bio;
		rq->bio = bio;
		rq->sector = bio->bi_sector;
	}
	rq->nr_bytes = total;
	rq->nr_segments = (unsigned short)segs;
}

bool bio_within_limits(const struct bio *bio, unsigned int segs, const struct queue_limits *lim)
{
	return (bio->bi_size >> SECTOR_SHIFT) <= lim->max_hw_sectors && segs <= lim->max_segments;
}

/*
 * Move bio_vecs from index i into child while it stays within the limits; returns the next
 * index. The first one always goes in (a bio_vec is at most a page, below every limit).
 */
static unsigned int blk_split_fill(struct bio *bio, struct bio *child, unsigned int i,
				   const struct queue_limits *lim)
{
	struct seg_walk w = { 0 };

	for (; i < bio->bi_vcnt && child->bi_vcnt < child->bi_max_vecs; i++) {
		const struct bio_vec *bv = &bio->bi_io_vec[i];
		struct seg_walk next = w;
		bool fits = seg_add(&next, bvec_phys(bv), bv->bv_len, lim, NULL, lim->max_segments);
		if (child->bi_vcnt &&
		    (!fits || ((child->bi_size + bv->bv_len) >> SECTOR_SHIFT) > lim->max_hw_sectors))
			break;
		w = next;
		child->bi_io_vec[child->bi_vcnt++] = *bv;
		child->bi_size += bv->bv_len;
	}
	return i;
}

/*
 * Cut bio into children that each fit the limits (at bio_vec boundaries, which submit_bio
 * made sector multiples), chained to bio. Returns them on *children, or -ENOMEM (children
 * made so far stay chained and listed: the caller fails them).
 */
int blk_bio_split(struct bio *bio, struct list_head *children)
{
	const struct queue_limits *lim = &bio->bi_bdev->bd_disk->queue->limits;
	sector_t sector = bio->bi_sector;
	unsigned int i = 0;

	while (i < bio->bi_vcnt) {
		unsigned short nr = (unsigned short)min(bio->bi_vcnt - i, (unsigned int)BIO_MAX_VECS);
		struct bio *child = bio_alloc(bio->bi_bdev, nr, bio->bi_opf, GFP_NOIO);
		if (!child)
			return -ENOMEM;
		child->bi_sector = sector;
		child->bi_blkcg = bio->bi_blkcg;
		child->bi_flags |= bio->bi_flags & BIO_THROTTLED;
		child->bi_start_ns = bio->bi_start_ns;
		i = blk_split_fill(bio, child, i, lim);
		sector += child->bi_size >> SECTOR_SHIFT;
		bio_chain(child, bio);
		list_add_tail(&child->bi_list, children);
	}
	return 0;
}
