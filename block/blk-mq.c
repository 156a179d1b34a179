/*
 * Requests: a fixed pool of queue_depth per disk, which is the queue-depth limit. A bio
 * merges into a request still waiting on the dispatch list or takes a free one; when none
 * is free the submitter waits in FIFO order and a freed request is handed straight to the
 * first waiter, so a stream of new submitters cannot starve it.
 *
 * q->lock (interrupts off) covers the pool, the dispatch list, the counters and the disk's
 * statistics. The driver's queue_rq/commit_rqs run under it; bios are completed outside it.
 */
#include "blk.h"
#include <cgwb/slab.h>
#include <cgwb/sched.h>
#include <cgwb/printk.h>
#include <cgwb/errno.h>
#include <cgwb/jiffies.h>
#include <cgwb/bug.h>

struct rq_waiter {
	struct wait_queue_entry wq;
	struct request *rq; /* set by the freeing side */
};

static void blk_mq_retry_work(struct work_struct *work);

int blk_mq_init_requests(struct request_queue *q)
{
	q->requests = kcalloc(q->queue_depth, sizeof(*q->requests), GFP_KERNEL);
	if (!q->requests)
		return -ENOMEM;
	for (unsigned int i = 0; i < q->queue_depth; i++) {
		struct request *rq = &q->requests[i];
		rq->q = q;
		rq->tag = (int)i;
		if (q->driver_data_size) {
			rq->driver_data = kzalloc(q->driver_data_size, GFP_KERNEL);
			if (!rq->driver_data)
				return -ENOMEM; /* the disk is abandoned: nothing to unwind */
		}
		list_add_tail(&rq->queuelist, &q->free_requests);
	}
	q->nr_free = q->queue_depth;
	INIT_LIST_HEAD(&q->retry_bios);
	INIT_WORK(&q->retry_work, blk_mq_retry_work);
	return 0;
}

/* q->lock held. */
static void blk_mq_free_request(struct request_queue *q, struct request *rq)
{
	rq->bio = rq->biotail = NULL;
	rq->rq_flags = 0;
	if (!list_empty(&q->rq_wait.head)) {
		struct rq_waiter *w = list_first_entry(&q->rq_wait.head, struct rq_waiter, wq.entry);
		struct task_struct *task = w->wq.task;
		/* once w->rq is set the waiter may return without sleeping: w is its stack */
		list_del_init(&w->wq.entry);
		smp_store_release(&w->rq, rq);
		wake_up_process(task);
		return;
	}
	list_add(&rq->queuelist, &q->free_requests);
	q->nr_free++;
}

static struct request *blk_mq_get_request(struct request_queue *q)
{
	struct rq_waiter w = { .rq = NULL };
	unsigned long flags;

	spin_lock_irqsave(&q->lock, flags);
	if (q->nr_free) {
		BUG_ON(!list_empty(&q->rq_wait.head)); /* a free request would have been handed over */
		struct request *rq = list_first_entry(&q->free_requests, struct request, queuelist);
		list_del_init(&rq->queuelist);
		q->nr_free--;
		spin_unlock_irqrestore(&q->lock, flags);
		return rq;
	}
	BUG_ON(in_interrupt());
	init_wait_entry(&w.wq, WQ_FLAG_EXCLUSIVE);
	list_add_tail(&w.wq.entry, &q->rq_wait.head);
	q->nr_waits++;
	spin_unlock_irqrestore(&q->lock, flags);

	/* what is queued must get to the device, or nothing would ever be freed */
	blk_mq_run_queue(q);
	u64 wait_start = ktime_get_ns();
	int token = io_schedule_prepare();

	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (smp_load_acquire(&w.rq))
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	io_schedule_finish(token);
	/* io.cost reads saturation from it */
	spin_lock_irqsave(&q->lock, flags);
	q->rq_wait_ns += ktime_get_ns() - wait_start;
	spin_unlock_irqrestore(&q->lock, flags);
	return w.rq;
}

void blk_rq_init_from_bio(struct request *rq, struct bio *bio, unsigned int segs)
{
	rq->cmd_flags = bio->bi_opf;
	rq->sector = bio->bi_sector;
	rq->nr_bytes = bio->bi_size;
	rq->nr_segments = (unsigned short)segs;
	rq->bio = rq->biotail = bio;
	bio->bi_next = NULL;
	rq->status = 0;
	rq->rq_flags = 0;
	if (bio_op(bio) == REQ_OP_WRITE && (bio->bi_opf & REQ_PREFLUSH))
		rq->rq_flags |= RQF_PREFLUSH | RQF_FLUSH_STEP;
	if (bio_op(bio) == REQ_OP_WRITE && (bio->bi_opf & REQ_FUA))
		rq->rq_flags |= RQF_POSTFLUSH;
}

/* q->lock held. Merge bio into a request that has not gone to the device yet. */
static bool blk_mq_attempt_merge(struct request_queue *q, struct bio *bio, unsigned int segs)
{
	struct request *rq;
	unsigned int scanned = 0;

	list_for_each_entry_reverse(rq, &q->dispatch, queuelist) {
		if (scanned++ == BLK_MERGE_SCAN)
			break;
		enum blk_merge how = blk_try_merge(rq, bio, segs);
		if (how == BLK_MERGE_NONE)
			continue;
		blk_rq_apply_merge(rq, bio, how);
		blk_account_io_merge(q, bio);
		return true;
	}
	return false;
}

void blk_mq_queue_bio(struct request_queue *q, struct bio *bio, unsigned int segs)
{
	unsigned long flags;
	bool merged;

	spin_lock_irqsave(&q->lock, flags);
	merged = !(bio->bi_opf & REQ_NOMERGE) && blk_mq_attempt_merge(q, bio, segs);
	spin_unlock_irqrestore(&q->lock, flags);
	if (merged)
		return;

	struct request *rq = blk_mq_get_request(q);
	blk_rq_init_from_bio(rq, bio, segs);
	spin_lock_irqsave(&q->lock, flags);
	blk_account_io_start(rq);
	list_add_tail(&rq->queuelist, &q->dispatch);
	spin_unlock_irqrestore(&q->lock, flags);
}

static void blk_mq_fail_children(struct list_head *children, int err)
{
	struct bio *child, *tmp;

	list_for_each_entry_safe(child, tmp, children, bi_list) {
		list_del_init(&child->bi_list);
		bio_io_error(child, err);
	}
}

/* A bio beyond the device's limits goes down as chained children that fit. */
static void blk_mq_submit_split(struct bio *bio)
{
	LIST_HEAD(children);
	struct bio *child, *tmp;
	int err = blk_bio_split(bio, &children);

	if (err) {
		blk_mq_fail_children(&children, err);
		bio->bi_status = err;
		bio_endio(bio); /* drops the submission's count: the parent ends once all are back */
		return;
	}
	list_for_each_entry_safe(child, tmp, &children, bi_list) {
		list_del_init(&child->bi_list);
		blk_mq_submit_bio(child);
	}
	bio_endio(bio);
}

void blk_mq_submit_bio(struct bio *bio)
{
	struct request_queue *q = bio->bi_bdev->bd_disk->queue;
	unsigned int segs = bio_nr_segments(bio, &q->limits);

	if (!bio_within_limits(bio, segs, &q->limits)) {
		blk_mq_submit_split(bio);
		return;
	}
	struct blk_plug *plug = blk_current_plug();
	if (plug) {
		blk_plug_add(plug, bio);
		return;
	}
	blk_mq_queue_bio(q, bio, segs);
	blk_mq_run_queue(q);
}

void blk_mq_run_queue(struct request_queue *q)
{
	LIST_HEAD(failed);
	unsigned int queued = 0;
	unsigned long flags;
	struct request *rq, *tmp;

	spin_lock_irqsave(&q->lock, flags);
	while (!list_empty(&q->dispatch)) {
		rq = list_first_entry(&q->dispatch, struct request, queuelist);
		if (!blk_power_cut_allows(rq))
			break; /* for good: the test that cut the power kills the machine */
		rq->rq_flags |= RQF_STARTED;
		rq->start_ns = ktime_get_ns();
		/*
		 * Off the list before the driver has it: another CPU may take its completion
		 * (and link it into its own list) before queue_rq even returns.
		 */
		list_del_init(&rq->queuelist);
		int err = q->ops->queue_rq(q, rq);
		if (err == -EBUSY) {
			rq->rq_flags &= ~RQF_STARTED;
			list_add(&rq->queuelist, &q->dispatch);
			q->nr_busy++;
			break;
		}
		if (err) {
			list_add_tail(&rq->queuelist, &failed);
			continue;
		}
		q->nr_in_flight++;
		q->nr_dispatched++;
		queued++;
	}
	if (queued && q->ops->commit_rqs)
		q->ops->commit_rqs(q);
	spin_unlock_irqrestore(&q->lock, flags);

	list_for_each_entry_safe(rq, tmp, &failed, queuelist) {
		list_del_init(&rq->queuelist);
		spin_lock_irqsave(&q->lock, flags);
		q->nr_in_flight++; /* blk_mq_end_request takes it back */
		spin_unlock_irqrestore(&q->lock, flags);
		blk_mq_end_request(rq, -EIO);
	}
}

/*
 * q->lock held, rq back from the driver without error. Move it to the next step of its
 * flush sequence (PREFLUSH before the data, a flush after FUA data); false when done.
 */
static bool blk_flush_next_step(struct request *rq, u64 now)
{
	if (rq->rq_flags & RQF_FLUSH_STEP) {
		blk_account_flush_step(rq, now);
		rq->rq_flags &= ~RQF_FLUSH_STEP;
		if (!(rq->rq_flags & RQF_PREFLUSH))
			return false; /* that was the flush after the data */
		rq->rq_flags &= ~RQF_PREFLUSH;
		return true; /* now the data */
	}
	if (rq->rq_flags & RQF_POSTFLUSH) {
		rq->rq_flags &= ~RQF_POSTFLUSH;
		rq->rq_flags |= RQF_FLUSH_STEP;
		return true;
	}
	return false;
}

/*
 * q->lock held. A merged request failed: the device may have failed only one of its bios,
 * so each is retried alone (REQ_NOMERGE) and only the failing ones see the error.
 */
static bool blk_mq_retry_alone(struct request_queue *q, struct request *rq, int status)
{
	if (status != -EIO || rq->bio == rq->biotail || (rq->cmd_flags & REQ_NOMERGE))
		return false;
	for (struct bio *bio = rq->bio, *next; bio; bio = next) {
		next = bio->bi_next;
		bio->bi_next = NULL;
		bio->bi_opf |= REQ_NOMERGE;
		list_add_tail(&bio->bi_list, &q->retry_bios);
	}
	queue_work(system_wq, &q->retry_work);
	return true;
}

static void blk_mq_retry_work(struct work_struct *work)
{
	struct request_queue *q = container_of(work, struct request_queue, retry_work);
	unsigned long flags;

	for (;;) {
		spin_lock_irqsave(&q->lock, flags);
		struct bio *bio = list_first_entry_or_null(&q->retry_bios, struct bio, bi_list);
		if (bio)
			list_del_init(&bio->bi_list);
		spin_unlock_irqrestore(&q->lock, flags);
		if (!bio)
			break;
		blk_mq_queue_bio(q, bio, bio_nr_segments(bio, &q->limits));
		blk_mq_run_queue(q);
	}
}

void blk_mq_end_request(struct request *rq, int status)
{
	struct request_queue *q = rq->q;
	u64 now = ktime_get_ns();
	unsigned long flags;
	struct bio *bio = NULL;

	spin_lock_irqsave(&q->lock, flags);
	BUG_ON(!q->nr_in_flight);
	q->nr_in_flight--;
	rq->rq_flags &= ~RQF_STARTED;
	if (!status && blk_flush_next_step(rq, now)) {
		list_add(&rq->queuelist, &q->dispatch); /* the driver runs the queue after completions */
		spin_unlock_irqrestore(&q->lock, flags);
		return;
	}
	rq->status = status;
	blk_account_io_done(rq, now);
	blk_iocost_done(rq, now);
	if (!blk_mq_retry_alone(q, rq, status))
		bio = rq->bio;
	blk_mq_free_request(q, rq);
	spin_unlock_irqrestore(&q->lock, flags);
	blk_disk_io_done(q->disk);

	while (bio) {
		struct bio *next = bio->bi_next;
		bio->bi_next = NULL;
		if (status)
			bio->bi_status = status;
		bio_endio(bio);
		bio = next;
	}
}
