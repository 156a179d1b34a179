/*
 * blk-throttle: the hook submit_bio calls (blk_throtl_bio), the throttle data of each disk
 * and the life of throttle groups and their limits. A bio within budget at every level of
 * its group's ancestry goes on at once; one that exceeds some level waits there, behind
 * the bios already waiting, and the dispatch machinery (blk-throttle-dispatch.c) releases
 * it when the budget allows.
 */
#include "blk-cgroup.h"
#include <cgwb/blkdev.h>
#include <cgwb/slab.h>
#include <cgwb/mutex.h>
#include <cgwb/printk.h>
#include <cgwb/bug.h>
#include <cgwb/errno.h>

static LIST_HEAD(throtl_data_list);       /* blkcg_lock */
static DEFINE_MUTEX(throtl_create_mutex); /* one creator of a disk's throtl_data at a time */

void throtl_grp_init(struct throtl_grp *tg, struct throtl_data *td, struct throtl_grp *parent)
{
	tg->td = td;
	throtl_service_queue_init(&tg->service_queue,
				  parent ? &parent->service_queue : &td->service_queue);
	INIT_LIST_HEAD(&tg->pending_node);
	for (int rw = THROTL_READ; rw <= THROTL_WRITE; rw++) {
		throtl_qnode_init(&tg->qnode_on_self[rw], tg);
		throtl_qnode_init(&tg->qnode_on_parent[rw], tg);
		tg->bps[rw] = U64_MAX;
		tg->iops[rw] = UINT_MAX;
		tg->slice_start[rw] = tg->slice_end[rw] = jiffies;
	}
}

void throtl_grp_exit(struct throtl_grp *tg)
{
	struct throtl_service_queue *sq = &tg->service_queue;

	/* queued bios pin their blkcg and so every group they pass through */
	WARN_ON_ONCE(sq->nr_queued[THROTL_READ] || sq->nr_queued[THROTL_WRITE] ||
		     !list_empty(&sq->pending) || (tg->flags & THROTL_TG_PENDING));
	del_timer_sync(&sq->pending_timer);
}

/* Parents are computed first (td->blkgs order), so one level up is enough. */
static void tg_update_has_rules(struct throtl_grp *tg)
{
	struct throtl_grp *parent = sq_to_tg(tg->service_queue.parent_sq);

	for (int rw = THROTL_READ; rw <= THROTL_WRITE; rw++)
		tg->has_rules[rw] = (parent && parent->has_rules[rw]) || tg_has_limit(tg, rw);
}

void blkg_link(struct blkcg_gq *blkg)
{
	struct throtl_data *td = blkg->td;

	spin_lock(&td->lock);
	list_add_tail(&blkg->td_node, &td->blkgs);
	list_add_tail(&blkg->blkcg_node, &blkg->blkcg->blkgs);
	tg_update_has_rules(&blkg->tg);
	spin_unlock(&td->lock);
}

/*
 * New limits for tg (td->lock held). Both directions start a new slice, so that IO done
 * under the old limits is not charged at the new rate, and a waiting group is rescheduled
 * for what the new limits allow.
 */
void tg_conf_updated(struct throtl_grp *tg)
{
	struct throtl_data *td = tg->td;
	struct blkcg_gq *blkg;
	unsigned long now = jiffies;

	list_for_each_entry(blkg, &td->blkgs, td_node)
		tg_update_has_rules(&blkg->tg);
	throtl_start_new_slice(tg, THROTL_READ, now);
	throtl_start_new_slice(tg, THROTL_WRITE, now);
	if (tg->flags & THROTL_TG_PENDING) {
		tg_update_disptime(tg, now);
		throtl_schedule_next_dispatch(tg->service_queue.parent_sq, true);
	}
}

struct throtl_data *blk_throtl_td_lookup(struct gendisk *disk)
{
	struct throtl_data *td, *found = NULL;
	unsigned long flags;

	spin_lock_irqsave(&blkcg_lock, flags);
	list_for_each_entry(td, &throtl_data_list, node) {
		if (td->disk == disk) {
			found = td;
			break;
		}
	}
	spin_unlock_irqrestore(&blkcg_lock, flags);
	return found;
}

static struct throtl_data *throtl_td_alloc(struct gendisk *disk)
{
	struct throtl_data *td = kzalloc(sizeof(*td), GFP_NOIO);

	if (!td)
		return NULL;
	td->disk = disk;
	spin_lock_init(&td->lock);
	td->lock.name = "td->lock";
	INIT_LIST_HEAD(&td->blkgs);
	INIT_LIST_HEAD(&td->node);
	INIT_WORK(&td->dispatch_work, blk_throtl_dispatch_work_fn);
	throtl_service_queue_init(&td->service_queue, NULL);
	td->root_blkg = blkg_alloc(blkcg_root, td, NULL, GFP_NOIO);
	if (!td->root_blkg) {
		kfree(td);
		return NULL;
	}
	return td;
}

static struct throtl_data *throtl_td_create(struct gendisk *disk)
{
	struct throtl_data *td;
	unsigned long flags;

	mutex_lock(&throtl_create_mutex);
	td = blk_throtl_td_lookup(disk);
	if (td)
		goto out;
	if (!kthrotld_workqueue)
		kthrotld_workqueue = alloc_workqueue("kthrotld", WQ_MEM_RECLAIM, WQ_DFL_ACTIVE);
	if (kthrotld_workqueue)
		td = throtl_td_alloc(disk);
	if (!td) {
		pr_warn("blk-throttle: %s: out of memory, io.max not enforced for now\n",
			disk->disk_name);
		goto out;
	}
	spin_lock_irqsave(&blkcg_lock, flags);
	list_add_tail(&td->node, &throtl_data_list);
	blkg_link(td->root_blkg);
	spin_unlock_irqrestore(&blkcg_lock, flags);
out:
	mutex_unlock(&throtl_create_mutex);
	return td;
}

struct throtl_data *blk_throtl_td(struct gendisk *disk)
{
	struct throtl_data *td = blk_throtl_td_lookup(disk);

	return td ? td : throtl_td_create(disk);
}

/*
 * Climb from tg towards the root while every level's budget allows the bio, charging each
 * level on the way. Returns false if it passed the top; true if it now waits in the first
 * level that is over budget or already holds bios of its direction (FIFO). A bio that may
 * not wait passes every level as debt.
 */
static bool throtl_bio_climb(struct throtl_grp *tg, struct bio *bio)
{
	struct throtl_data *td = tg->td;
	struct throtl_service_queue *sq = &tg->service_queue;
	struct throtl_qnode *qn = NULL;
	int rw = throtl_bio_dir(bio);
	unsigned long flags, now;

	spin_lock_irqsave(&td->lock, flags);
	now = jiffies;
	if (bio_expedited(bio)) {
		throtl_charge_debt(tg, bio, now); /* asked under td->lock: blk-throttle-debt.c */
		spin_unlock_irqrestore(&td->lock, flags);
		return false;
	}
	while (!sq->nr_queued[rw] && tg_may_dispatch(tg, bio, now, NULL)) {
		throtl_charge_bio(tg, bio);
		/* trim here too, or a group that never queues would extend its slice forever */
		throtl_trim_slice(tg, rw, now);
		qn = &tg->qnode_on_parent[rw];
		sq = sq->parent_sq;
		tg = sq_to_tg(sq);
		if (!tg) {
			spin_unlock_irqrestore(&td->lock, flags);
			return false;
		}
	}
	throtl_add_bio_tg(bio, qn, tg);
	/* the first bio of an idle group: it must become due in its parent */
	if (tg->flags & THROTL_TG_WAS_EMPTY) {
		tg_update_disptime(tg, now);
		throtl_schedule_next_dispatch(tg->service_queue.parent_sq, true);
	}
	spin_unlock_irqrestore(&td->lock, flags);
	return true;
}

/* The strong definition of the block layer's hook (drivers/block/blk-core.c). */
bool blk_throtl_bio(struct bio *bio)
{
	struct throtl_data *td;
	struct blkcg_gq *blkg;
	bool throttled;

	/* flushes carry no data: neither limited nor counted */
	if (bio_op(bio) == REQ_OP_FLUSH || !blkcg_root)
		return false;
	td = blk_throtl_td(bio->bi_bdev->bd_disk);
	if (!td)
		return false;
	blkg = blkg_lookup_create(bio->bi_blkcg ? bio->bi_blkcg : blkcg_root, td, GFP_NOIO);
	throttled = blkg->tg.has_rules[throtl_bio_dir(bio)] && throtl_bio_climb(&blkg->tg, bio);
	bio->bi_flags |= BIO_THROTTLED;
	if (!throttled)
		blkg_account_io(blkg, bio);
	return throttled;
}

/* ---------------------------------------------------------------- io.max's limits */

/* Under td->lock: IOs/s beyond what the counters hold mean no limit, as in Linux. */
static void tg_set_limits(struct throtl_grp *tg, const struct blkcg_limits *lim)
{
	BUILD_BUG_ON((int)BLKCG_LIMIT_WBPS - (int)BLKCG_LIMIT_RBPS !=
		     (int)THROTL_WRITE - (int)THROTL_READ);
	for (int rw = THROTL_READ; rw <= THROTL_WRITE; rw++) {
		if (lim->set[BLKCG_LIMIT_RBPS + rw])
			tg->bps[rw] = lim->val[BLKCG_LIMIT_RBPS + rw];
		if (lim->set[BLKCG_LIMIT_RIOPS + rw])
			tg->iops[rw] =
				(unsigned int)min_t(u64, lim->val[BLKCG_LIMIT_RIOPS + rw], UINT_MAX);
	}
	tg_conf_updated(tg);
}

int blkcg_set_limits(struct blkcg *blkcg, struct gendisk *disk, const struct blkcg_limits *lim)
{
	struct throtl_data *td = blk_throtl_td(disk);
	struct blkcg_gq *blkg;
	unsigned long flags;

	if (!td)
		return -ENOMEM;
	blkg = blkg_lookup_create(blkcg, td, GFP_KERNEL);
	if (blkg->blkcg != blkcg)
		return -ENOMEM; /* an ancestor's group stood in */
	spin_lock_irqsave(&td->lock, flags);
	tg_set_limits(&blkg->tg, lim);
	spin_unlock_irqrestore(&td->lock, flags);
	return 0;
}

bool blkcg_get_limits(struct blkcg *blkcg, struct gendisk *disk, struct blkcg_limits *lim)
{
	struct throtl_data *td = blk_throtl_td_lookup(disk);
	struct blkcg_gq *blkg = NULL;
	unsigned long flags;
	bool any = false;

	for (int k = 0; k < BLKCG_LIMIT_NR; k++) {
		lim->val[k] = U64_MAX;
		lim->set[k] = false;
	}
	if (!td)
		return false;
	spin_lock_irqsave(&blkcg_lock, flags);
	blkg = blkg_lookup(blkcg, td);
	if (blkg) {
		spin_lock(&td->lock);
		for (int rw = THROTL_READ; rw <= THROTL_WRITE; rw++) {
			lim->val[BLKCG_LIMIT_RBPS + rw] = blkg->tg.bps[rw];
			if (blkg->tg.iops[rw] != UINT_MAX)
				lim->val[BLKCG_LIMIT_RIOPS + rw] = blkg->tg.iops[rw];
		}
		spin_unlock(&td->lock);
	}
	spin_unlock_irqrestore(&blkcg_lock, flags);
	for (int k = 0; k < BLKCG_LIMIT_NR; k++)
		any |= lim->val[k] != U64_MAX;
	return any;
}

bool blk_throtl_limits_writes(struct blkcg *blkcg, struct gendisk *disk)
{
	struct throtl_data *td = blk_throtl_td_lookup(disk);
	bool limited = false;
	unsigned long flags;

	if (!td)
		return false;
	spin_lock_irqsave(&blkcg_lock, flags);
	for (; blkcg && !limited; blkcg = blkcg_parent(blkcg)) {
		struct blkcg_gq *blkg = blkg_lookup(blkcg, td);

		if (!blkg)
			continue;
		spin_lock(&td->lock);
		limited = tg_has_limit(&blkg->tg, THROTL_WRITE);
		spin_unlock(&td->lock);
	}
	spin_unlock_irqrestore(&blkcg_lock, flags);
	return limited;
}

u64 blkcg_write_bps_limit(struct blkcg *blkcg, struct gendisk *disk)
{
	struct throtl_data *td = disk ? blk_throtl_td_lookup(disk) : NULL;
	u64 bps = U64_MAX;
	unsigned long flags;

	if (!td)
		return bps;
	spin_lock_irqsave(&blkcg_lock, flags);
	for (; blkcg; blkcg = blkcg_parent(blkcg)) {
		struct blkcg_gq *blkg = blkg_lookup(blkcg, td);

		if (!blkg)
			continue;
		spin_lock(&td->lock);
		bps = min(bps, blkg->tg.bps[THROTL_WRITE]);
		spin_unlock(&td->lock);
	}
	spin_unlock_irqrestore(&blkcg_lock, flags);
	return bps;
}
