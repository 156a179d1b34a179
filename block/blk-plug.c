/*
 * Plugging: a task that knows more IO follows (writeback of many pages, a multi-bio
 * transfer) holds a plug; its bios wait on the plug, then go down together
 * so that neighbours merge into large requests and the device is told once.
 *
 * A plug is dispatched at blk_finish_plug(); when a new run would be its
 * BLK_MAX_REQUEST_COUNT + 1st or follows one of BLK_PLUG_FLUSH_SIZE or more (as Linux: a
 * large request gains nothing by waiting, and a long plugged pass, as blk-throttle's
 * dispatch, would hold its data back to its end); and, as in Linux (sched_submit_work),
 * whenever its owner goes to sleep: the plug is the task's sleep_flush, which schedule()
 * calls for a task that is not running. Otherwise a task waiting for one of the plugged bios (a page under
 * writeback, a locked buffer) while the owner waits for that task would wait for ever. So
 * the waits for IO (lock_page, lock_buffer, submit_bio_wait...) need nothing of their own.
 */
#include "blk.h"
#include <cgwb/sched.h>
#include <cgwb/bug.h>

/* Interrupt handlers submit on behalf of nobody: the interrupted task's plug is not theirs. */
struct blk_plug *blk_current_plug(void)
{
	if (in_interrupt() || !current || !current->sleep_flush)
		return NULL;
	return container_of(current->sleep_flush, struct blk_plug, sleep);
}

static void blk_plug_sleep_flush(struct task_sleep_flush *flush);

void blk_start_plug(struct blk_plug *plug)
{
	INIT_LIST_HEAD(&plug->bios);
	plug->count = 0;
	plug->run_bytes = 0;
	plug->owner = NULL;
	plug->sleep.fn = blk_plug_sleep_flush;
	if (blk_current_plug())
		return; /* nested: the outer plug collects everything */
	plug->owner = current;
	current->sleep_flush = &plug->sleep;
}

/* Queue every plugged bio (merging on the way), then run each queue once. */
static void blk_flush_plug(struct blk_plug *plug)
{
	struct request_queue *last = NULL;
	struct bio *bio, *tmp;
	LIST_HEAD(bios);

	list_splice_init(&plug->bios, &bios);
	plug->count = 0;
	plug->run_bytes = 0;
	list_for_each_entry_safe(bio, tmp, &bios, bi_list) {
		struct request_queue *q = bio->bi_bdev->bd_disk->queue;
		list_del_init(&bio->bi_list);
		if (last && last != q)
			blk_mq_run_queue(last);
		last = q;
		blk_mq_queue_bio(q, bio, bio_nr_segments(bio, &q->limits));
	}
	if (last)
		blk_mq_run_queue(last);
}

void blk_finish_plug(struct blk_plug *plug)
{
	if (!plug->owner)
		return;
	BUG_ON(plug->owner != current || current->sleep_flush != &plug->sleep);
	blk_flush_plug(plug);
	current->sleep_flush = NULL;
	plug->owner = NULL;
}

/* The owner goes to sleep: send what waits (sending may sleep: no free request). */
static void blk_plug_sleep_flush(struct task_sleep_flush *flush)
{
	struct blk_plug *plug = container_of(flush, struct blk_plug, sleep);

	if (!list_empty(&plug->bios))
		blk_flush_plug(plug);
}

/*
 * Does bio continue the last plugged one (same disk, kind and cgroup, next sector) within
 * the size of one request?
 */
static bool plug_continues(struct blk_plug *plug, const struct bio *bio)
{
	if (list_empty(&plug->bios))
		return false;
	const struct bio *last = list_last_entry(&plug->bios, struct bio, bi_list);
	const struct queue_limits *lim = &bio->bi_bdev->bd_disk->queue->limits;
	return plug->run_bytes + bio->bi_size <= (u64)lim->max_hw_sectors * SECTOR_SIZE &&
	       last->bi_bdev == bio->bi_bdev && last->bi_opf == bio->bi_opf &&
	       last->bi_blkcg == bio->bi_blkcg && bio_end_sector(last) == bio->bi_sector &&
	       !(bio->bi_opf & (REQ_NOMERGE | REQ_PREFLUSH | REQ_FUA));
}

void blk_plug_add(struct blk_plug *plug, struct bio *bio)
{
	if (plug_continues(plug, bio)) {
		plug->run_bytes += bio->bi_size;
	} else {
		/* the runs plugged so far are complete: send them if there are enough of them */
		if (plug->count >= BLK_MAX_REQUEST_COUNT || plug->run_bytes >= BLK_PLUG_FLUSH_SIZE)
			blk_flush_plug(plug);
		plug->count++;
		plug->run_bytes = bio->bi_size;
	}
	list_add_tail(&bio->bi_list, &plug->bios);
}
