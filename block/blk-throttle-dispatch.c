/*
 * Moving held bios up the group tree: the FIFO queues of a service queue, the list of its
 * child groups ordered by when they may dispatch next, the timer that fires then, the
 * dispatch rounds (per group 6 reads then 2 writes, 32 bios per round in all) and the work
 * item that issues what reached the top. Everything here runs under td->lock except the
 * work item's issuing.
 */
#include "blk-cgroup.h"
#include "blk.h"
#include <cgwb/blkdev.h>
#include <cgwb/jiffies.h>
#include <cgwb/bug.h>

struct workqueue_struct *kthrotld_workqueue;

static void throtl_pending_timer_fn(struct timer_list *timer);

void throtl_qnode_init(struct throtl_qnode *qn, struct throtl_grp *tg)
{
	INIT_LIST_HEAD(&qn->node);
	INIT_LIST_HEAD(&qn->bios);
	qn->tg = tg;
}

void throtl_service_queue_init(struct throtl_service_queue *sq, struct throtl_service_queue *parent_sq)
{
	sq->parent_sq = parent_sq;
	INIT_LIST_HEAD(&sq->queued[THROTL_READ]);
	INIT_LIST_HEAD(&sq->queued[THROTL_WRITE]);
	sq->nr_queued[THROTL_READ] = sq->nr_queued[THROTL_WRITE] = 0;
	INIT_LIST_HEAD(&sq->pending);
	timer_setup(&sq->pending_timer, throtl_pending_timer_fn, 0);
}

static struct throtl_data *sq_to_td(struct throtl_service_queue *sq)
{
	struct throtl_grp *tg = sq_to_tg(sq);

	return tg ? tg->td : container_of(sq, struct throtl_data, service_queue);
}

static void throtl_qnode_add_bio(struct bio *bio, struct throtl_qnode *qn, struct list_head *queued)
{
	list_add_tail(&bio->bi_list, &qn->bios);
	if (list_empty(&qn->node))
		list_add_tail(&qn->node, queued);
}

struct bio *throtl_peek_queued(struct list_head *queued)
{
	struct throtl_qnode *qn;

	if (list_empty(queued))
		return NULL;
	qn = list_first_entry(queued, struct throtl_qnode, node);
	return list_first_entry(&qn->bios, struct bio, bi_list);
}

/* The first bio of the first source; that source then goes to the back (round robin). */
static struct bio *throtl_pop_queued(struct list_head *queued)
{
	struct bio *bio = throtl_peek_queued(queued);
	struct throtl_qnode *qn;

	if (!bio)
		return NULL;
	qn = list_first_entry(queued, struct throtl_qnode, node);
	list_del_init(&bio->bi_list);
	if (list_empty(&qn->bios))
		list_del_init(&qn->node);
	else
		list_move_tail(&qn->node, queued);
	return bio;
}

/* Keep the pending list sorted by disptime; equal times keep their arrival order. */
static void throtl_enqueue_tg(struct throtl_grp *tg)
{
	struct throtl_service_queue *parent_sq = tg->service_queue.parent_sq;
	struct list_head *before = &parent_sq->pending;
	struct throtl_grp *pos;

	if (tg->flags & THROTL_TG_PENDING)
		return;
	list_for_each_entry(pos, &parent_sq->pending, pending_node) {
		if (time_before(tg->disptime, pos->disptime)) {
			before = &pos->pending_node;
			break;
		}
	}
	list_add_tail(&tg->pending_node, before);
	tg->flags |= THROTL_TG_PENDING;
}

void throtl_dequeue_tg(struct throtl_grp *tg)
{
	if (!(tg->flags & THROTL_TG_PENDING))
		return;
	list_del_init(&tg->pending_node);
	tg->flags &= ~THROTL_TG_PENDING;
}

static struct throtl_grp *throtl_first_pending(struct throtl_service_queue *sq)
{
	return list_first_entry_or_null(&sq->pending, struct throtl_grp, pending_node);
}

/* Queue bio in tg, behind what waits there, through qn (NULL: bios that stop in tg). */
void throtl_add_bio_tg(struct bio *bio, struct throtl_qnode *qn, struct throtl_grp *tg)
{
	struct throtl_service_queue *sq = &tg->service_queue;
	int rw = throtl_bio_dir(bio);

	if (!qn)
		qn = &tg->qnode_on_self[rw];
	/* its first bio may make tg due earlier than it is scheduled: see tg_update_disptime */
	if (!sq->nr_queued[rw])
		tg->flags |= THROTL_TG_WAS_EMPTY;
	throtl_qnode_add_bio(bio, qn, &sq->queued[rw]);
	sq->nr_queued[rw]++;
	throtl_enqueue_tg(tg);
}

/* Only the first bio of a direction may be asked about: the queue is FIFO. */
bool tg_may_dispatch(struct throtl_grp *tg, struct bio *bio, unsigned long now, unsigned long *wait)
{
	int rw = throtl_bio_dir(bio);

	WARN_ON_ONCE(tg->service_queue.nr_queued[rw] &&
		     bio != throtl_peek_queued(&tg->service_queue.queued[rw]));
	return tg_may_dispatch_size(tg, rw, bio->bi_size, now, wait);
}

/* Re-sort tg on its parent's pending list by the sooner of its two directions. */
void tg_update_disptime(struct throtl_grp *tg, unsigned long now)
{
	struct throtl_service_queue *sq = &tg->service_queue;
	unsigned long wait[2] = { ULONG_MAX, ULONG_MAX };
	struct bio *bio;

	for (int rw = THROTL_READ; rw <= THROTL_WRITE; rw++) {
		bio = throtl_peek_queued(&sq->queued[rw]);
		if (bio)
			tg_may_dispatch(tg, bio, now, &wait[rw]);
	}
	throtl_dequeue_tg(tg);
	tg->disptime = now + min(wait[THROTL_READ], wait[THROTL_WRITE]);
	throtl_enqueue_tg(tg);
	tg->flags &= ~THROTL_TG_WAS_EMPTY;
}

/* Never sleep more than 8 slices: a limit raised meanwhile is then noticed soon enough. */
static void throtl_schedule_pending_timer(struct throtl_service_queue *sq, unsigned long expires)
{
	unsigned long max_expire = jiffies + THROTL_MAX_TIMER_SLICES * THROTL_SLICE;

	if (time_after(expires, max_expire))
		expires = max_expire;
	mod_timer(&sq->pending_timer, expires);
}

/*
 * Arm sq's timer for its first pending child. Returns true if the timer is armed or
 * nothing is pending, false if that child is due already and the caller should go on
 * dispatching (force: arm the timer even then, for callers that cannot dispatch).
 */
bool throtl_schedule_next_dispatch(struct throtl_service_queue *sq, bool force)
{
	struct throtl_grp *first = throtl_first_pending(sq);

	if (!first)
		return true;
	if (force || time_after(first->disptime, jiffies)) {
		throtl_schedule_pending_timer(sq, first->disptime);
		return true;
	}
	return false;
}

static void start_parent_slice_with_credit(struct throtl_grp *child, struct throtl_grp *parent,
					   int rw, unsigned long now)
{
	if (throtl_slice_used(parent, rw, now))
		throtl_start_new_slice_with_credit(parent, rw, child->slice_start[rw], now);
}

/* Charge tg's first bio of direction rw and move it one level up. */
static void tg_dispatch_one_bio(struct throtl_grp *tg, int rw, unsigned long now)
{
	struct throtl_service_queue *sq = &tg->service_queue;
	struct throtl_service_queue *parent_sq = sq->parent_sq;
	struct throtl_grp *parent_tg = sq_to_tg(parent_sq);
	struct bio *bio = throtl_pop_queued(&sq->queued[rw]);

	sq->nr_queued[rw]--;
	throtl_charge_bio(tg, bio);
	if (parent_tg) {
		throtl_add_bio_tg(bio, &tg->qnode_on_parent[rw], parent_tg);
		start_parent_slice_with_credit(tg, parent_tg, rw, now);
	} else {
		/* the top: ready to be issued by the work item */
		throtl_qnode_add_bio(bio, &tg->qnode_on_parent[rw], &parent_sq->queued[rw]);
	}
	throtl_trim_slice(tg, rw, now);
}

static unsigned int tg_dispatch_dir(struct throtl_grp *tg, int rw, unsigned int max_nr,
				    unsigned long now)
{
	struct bio *bio;
	unsigned int nr = 0;

	while (nr < max_nr && (bio = throtl_peek_queued(&tg->service_queue.queued[rw])) &&
	       tg_may_dispatch(tg, bio, now, NULL)) {
		tg_dispatch_one_bio(tg, rw, now);
		nr++;
	}
	return nr;
}

/* One round of one group: reads get 75 % of the quantum, writes the rest. */
static unsigned int throtl_dispatch_tg(struct throtl_grp *tg, unsigned long now)
{
	unsigned int nr;

	nr = tg_dispatch_dir(tg, THROTL_READ, THROTL_GRP_QUANTUM_READS, now);
	nr += tg_dispatch_dir(tg, THROTL_WRITE, THROTL_GRP_QUANTUM - THROTL_GRP_QUANTUM_READS, now);
	return nr;
}

/* Serve the due children of parent_sq in disptime order, up to the round's quantum. */
static unsigned int throtl_select_dispatch(struct throtl_service_queue *parent_sq, unsigned long now)
{
	unsigned int nr_disp = 0;
	struct throtl_grp *tg;

	while ((tg = throtl_first_pending(parent_sq)) && !time_before(now, tg->disptime)) {
		struct throtl_service_queue *sq = &tg->service_queue;

		throtl_dequeue_tg(tg);
		nr_disp += throtl_dispatch_tg(tg, now);
		if (sq->nr_queued[THROTL_READ] || sq->nr_queued[THROTL_WRITE])
			tg_update_disptime(tg, now);
		if (nr_disp >= THROTL_QUANTUM)
			break;
	}
	return nr_disp;
}

/*
 * sq's first child is due: move its bios into sq. If sq is a group that just got its
 * first bios, it becomes pending in its own parent, which may be due at once: go on one
 * level up. At the top, hand over to the issuing work (issuing may sleep).
 */
static void throtl_pending_timer_fn(struct timer_list *timer)
{
	struct throtl_service_queue *sq = from_timer(sq, timer, pending_timer);
	struct throtl_data *td = sq_to_td(sq);
	unsigned long flags;
	bool dispatched;

	spin_lock_irqsave(&td->lock, flags);
	for (;;) {
		struct throtl_grp *tg = sq_to_tg(sq);
		struct throtl_service_queue *parent_sq = sq->parent_sq;

		dispatched = false;
		do {
			if (throtl_select_dispatch(sq, jiffies))
				dispatched = true;
		} while (!throtl_schedule_next_dispatch(sq, false));
		if (!dispatched)
			break;
		if (!parent_sq) {
			queue_work(kthrotld_workqueue, &td->dispatch_work);
			break;
		}
		if (!(tg->flags & THROTL_TG_WAS_EMPTY))
			break;
		tg_update_disptime(tg, jiffies);
		if (throtl_schedule_next_dispatch(parent_sq, false))
			break;
		sq = parent_sq;
	}
	spin_unlock_irqrestore(&td->lock, flags);
}

static struct bio *throtl_pop_top(struct throtl_data *td)
{
	struct throtl_service_queue *sq = &td->service_queue;
	struct bio *bio = throtl_pop_queued(&sq->queued[THROTL_READ]);

	return bio ? bio : throtl_pop_queued(&sq->queued[THROTL_WRITE]);
}

void throtl_issue_bios(struct list_head *ready)
{
	struct blk_plug plug;
	struct bio *bio, *next;

	if (list_empty(ready))
		return;
	blk_start_plug(&plug);
	list_for_each_entry_safe(bio, next, ready, bi_list) {
		list_del_init(&bio->bi_list);
		blkcg_account_io(bio);
		blk_iocost_throttle(bio); /* io.max comes first, then io.cost, as Linux's */
		blk_mq_submit_bio(bio);
	}
	blk_finish_plug(&plug);
}

/*
 * Issue the bios that passed every level, outside the lock and in process context: the
 * device may make us wait for a request slot.
 */
void blk_throtl_dispatch_work_fn(struct work_struct *work)
{
	struct throtl_data *td = container_of(work, struct throtl_data, dispatch_work);
	struct list_head ready = LIST_HEAD_INIT(ready);
	unsigned long flags;
	struct bio *bio;

	spin_lock_irqsave(&td->lock, flags);
	while ((bio = throtl_pop_top(td)))
		list_add_tail(&bio->bi_list, &ready);
	spin_unlock_irqrestore(&td->lock, flags);
	throtl_issue_bios(&ready);
}
