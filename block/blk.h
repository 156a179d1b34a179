/* Block layer internals shared by drivers/block/ files (and their host unit tests). */
#ifndef CGWB_DRIVERS_BLOCK_BLK_H
#define CGWB_DRIVERS_BLOCK_BLK_H

#include <cgwb/blkdev.h>

/* Requests merged from at most this many separate runs are dispatched from a plug at once. */
#define BLK_MAX_REQUEST_COUNT 16
/* A run this large is dispatched as soon as another run starts (Linux's BLK_PLUG_FLUSH_SIZE). */
#define BLK_PLUG_FLUSH_SIZE (128 * 1024)
/* How far back the dispatch list is searched for a request to merge with. */
#define BLK_MERGE_SCAN 8

enum blk_merge {
	BLK_MERGE_NONE,
	BLK_MERGE_BACK,  /* the bio continues the request */
	BLK_MERGE_FRONT, /* the bio ends where the request starts */
};

/* blk-merge.c */
unsigned int bio_nr_segments(const struct bio *bio, const struct queue_limits *lim);
bool bio_within_limits(const struct bio *bio, unsigned int segs, const struct queue_limits *lim);
bool blk_rq_merge_ok(const struct request *rq, const struct bio *bio);
enum blk_merge blk_try_merge(const struct request *rq, const struct bio *bio, unsigned int bio_segs);
void blk_rq_apply_merge(struct request *rq, struct bio *bio, enum blk_merge how);
int blk_bio_split(struct bio *bio, struct list_head *children);

/* blk-mq.c */
void blk_rq_init_from_bio(struct request *rq, struct bio *bio, unsigned int segs);
/* Merge bio into a waiting request or queue a new one; the caller runs the queue. */
void blk_mq_queue_bio(struct request_queue *q, struct bio *bio, unsigned int segs);
int blk_mq_init_requests(struct request_queue *q);

/* blk-power-cut.c: q->lock held. May rq go to its device, or has the power gone? */
bool blk_power_cut_allows(const struct request *rq);

/* blk-plug.c */
struct blk_plug *blk_current_plug(void);
void blk_plug_add(struct blk_plug *plug, struct bio *bio);

/* genhd.c: a request of disk completed (the VFS's disk hook; no lock held) */
void blk_disk_io_done(struct gendisk *disk);

/* blk-iocost.c: io.cost's hooks. The issue of a bio (may sleep until its group's budget
 * allows it), and a request's completion (q->lock held). */
void blk_iocost_throttle(struct bio *bio);
void blk_iocost_done(struct request *rq, u64 now_ns);
/* A bio ended: the cost its group paid for it at issue is no longer in flight. */
void blk_iocost_done_bio(struct bio *bio);
/* Writeback of mapping became expedited: its bios waiting for a budget go now, as debt. */
void blk_iocost_expedite(struct gendisk *disk, const struct address_space *mapping);

/* blk-stat.c: called with q->lock held */
void blk_account_io_start(struct request *rq);
void blk_account_io_merge(struct request_queue *q, const struct bio *bio);
void blk_account_io_done(struct request *rq, u64 now);
void blk_account_flush_step(struct request *rq, u64 now);

#endif
