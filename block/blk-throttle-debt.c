/*
 * io.max's debt: writeback that must not wait behind its group's limit (bio_expedited():
 * ext4's data=ordered commit waits for it, and every handle and every other group's fsync
 * waits for the commit). Linux 6.1 issues that data as the root's and charges nobody; cgwb
 * lets it go at once and charges it to its group as if it had waited its turn:
 *
 * - every level from where the bio stands up to the root pays for it, as a dispatch would;
 * - what it took beyond a level's budget is debt: the level's slice stays open until the
 *   allowance covers it (throtl_debt_end()), so its next bios wait it out;
 * - the group's dirtiers pause until then too (blkg_note_throtl_debt(),
 *   blkcg_maybe_throttle_current()): without it a group whose data the commits keep taking
 *   would dirty on at the disk's speed and its debt would grow without end.
 *
 * A group therefore gets past its limit at most the data a commit takes from it at once
 * (its dirty and queued pages of the files whose blocks that transaction allocated), and
 * pays it back before it writes or dirties more: over a run its rate stays at its limit.
 *
 * Races: the expediter marks the mapping before it takes td->lock to look for bios already
 * held, and blk_throtl_bio() asks under td->lock: a bio either was queued before the look
 * (and is found) or sees the mark. Everything here runs under td->lock except issuing.
 */
#include "blk-cgroup.h"
#include "blk.h"
#include <cgwb/blkdev.h>
#include <cgwb/jiffies.h>

/*
 * The slice a debt is charged in. A level idle since its last debt was paid starts its new
 * slice when that was, at most a slice ago: its group paused until then and dirtied
 * since, and the commit that takes its data comes up to a slice later; a slice started
 * now would lose that much of its limit each round. A trim keeps as much (a slice).
 */
static void throtl_debt_slice(struct throtl_grp *tg, int rw, unsigned long now)
{
	unsigned long paid = throtl_debt_end(tg, rw);

	if (!throtl_slice_used(tg, rw, now) || tg->service_queue.nr_queued[rw]) {
		throtl_slice_renew(tg, rw, now);
		return;
	}
	throtl_start_new_slice(tg, rw, now);
	if (time_after(paid, now - THROTL_SLICE) && time_before(paid, now))
		tg->slice_start[rw] = paid;
	else if (!time_after(paid, now - THROTL_SLICE))
		tg->slice_start[rw] = now - THROTL_SLICE;
}

/* Charge the bio at tg and every level above, from where it stands (td->lock held). */
void throtl_charge_debt(struct throtl_grp *tg, struct bio *bio, unsigned long now)
{
	int rw = throtl_bio_dir(bio);

	for (; tg; tg = sq_to_tg(tg->service_queue.parent_sq)) {
		unsigned long end;

		if (!tg_has_limit(tg, rw)) {
			bio->bi_flags |= BIO_THROTTLED;
			continue;
		}
		throtl_debt_slice(tg, rw, now);
		throtl_charge_bio(tg, bio);
		end = throtl_debt_end(tg, rw);
		if (time_after(end, tg->slice_end[rw]))
			throtl_extend_slice(tg, rw, end);
		blkg_note_throtl_debt(tg_to_blkg(tg), end);
	}
}

/*
 * Take every write bio of mapping out of tg's queue, wherever it stands (the rest keep
 * their order), charge it from tg up and add it to out; then reschedule tg for its new
 * first bio. td->lock held.
 */
static void tg_take_expedited(struct throtl_grp *tg, const struct address_space *mapping,
			      struct list_head *out, unsigned long now)
{
	struct throtl_service_queue *sq = &tg->service_queue;
	struct throtl_qnode *qn, *qnext;
	struct bio *bio, *next;
	unsigned int nr = 0;

	list_for_each_entry_safe(qn, qnext, &sq->queued[THROTL_WRITE], node) {
		list_for_each_entry_safe(bio, next, &qn->bios, bi_list) {
			if (bio_writeback_mapping(bio) != mapping)
				continue;
			list_move_tail(&bio->bi_list, out);
			throtl_charge_debt(tg, bio, now);
			nr++;
		}
		if (list_empty(&qn->bios))
			list_del_init(&qn->node);
	}
	if (!nr)
		return;
	sq->nr_queued[THROTL_WRITE] -= nr;
	if (!sq->nr_queued[THROTL_READ] && !sq->nr_queued[THROTL_WRITE])
		throtl_dequeue_tg(tg);
	else
		tg_update_disptime(tg, now);
	throtl_schedule_next_dispatch(sq->parent_sq, true);
}

void blk_throtl_expedite(struct gendisk *disk, const struct address_space *mapping)
{
	struct throtl_data *td = blk_throtl_td_lookup(disk);
	LIST_HEAD(ready);
	struct blkcg_gq *blkg;
	unsigned long flags;

	if (!td)
		return;
	spin_lock_irqsave(&td->lock, flags);
	list_for_each_entry(blkg, &td->blkgs, td_node)
		tg_take_expedited(&blkg->tg, mapping, &ready, jiffies);
	spin_unlock_irqrestore(&td->lock, flags);
	throtl_issue_bios(&ready); /* expedited: io.cost charges them as debt too */
}
