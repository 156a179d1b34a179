/*
 * The io controller ("io" in cgroup.subtree_control): its per-cgroup state (struct blkcg),
 * the per-disk groups (struct blkcg_gq) that carry io.max limits and io.stat counters, and
 * the io cgroup each bio is charged to.
 *
 * Lifetimes. A bio holds a reference on its blkcg from submit_bio to bio_put, and every
 * css holds one on its parent (the cgroup core's rule), so a group is never freed while a
 * bio waits in it or passes through it: groups go with their blkcg, in css_free.
 *
 * Removal, as Linux since "blkcg: delay blkg destruction until after writeback has
 * finished": rmdir does not lift a group's limits. Its writeback contexts live on until
 * their inodes are clean, and each pins the blkcg online (online_pin), so the pages the
 * group left behind are written at its io.max and its ancestors'. When the last pin goes
 * the groups are retired: later bios for the blkcg enter the nearest live ancestor's group,
 * and what a retired group still holds leaves at its limits as before.
 */
#include "blk-cgroup.h"
#include "blk.h"
#include <cgwb/blkdev.h>
#include <cgwb/blk-iocost.h>
#include <cgwb/pagemap.h>
#include <cgwb/string.h>
#include <cgwb/sched.h>
#include <cgwb/slab.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include <cgwb/irqflags.h>
#include <cgwb/jiffies.h>

struct blkcg *blkcg_root;
DEFINE_SPINLOCK(blkcg_lock);

struct blkcg *blkcg_parent(struct blkcg *blkcg)
{
	return blkcg->css.parent ? css_to_blkcg(blkcg->css.parent) : NULL;
}

struct blkcg *task_blkcg(struct task_struct *task)
{
	return css_to_blkcg(task_css(task, io_cgrp_id));
}

/* ---------------------------------------------------------------- bios */

void bio_associate_blkcg(struct bio *bio)
{
	struct blkcg *blkcg;

	if ((bio->bi_flags & BIO_BLKCG_REF) || !blkcg_root)
		return;
	blkcg = bio->bi_blkcg ? bio->bi_blkcg : task_blkcg(current);
	css_get(&blkcg->css);
	bio->bi_blkcg = blkcg;
	bio->bi_flags |= BIO_BLKCG_REF;
}

void bio_release_blkcg(struct bio *bio)
{
	if (!(bio->bi_flags & BIO_BLKCG_REF))
		return;
	bio->bi_flags &= ~BIO_BLKCG_REF;
	css_put(&bio->bi_blkcg->css);
}

/* ---------------------------------------------------------------- groups */

struct blkcg_gq *blkg_lookup(struct blkcg *blkcg, struct throtl_data *td)
{
	struct blkcg_gq *blkg;

	list_for_each_entry(blkg, &blkcg->blkgs, blkcg_node)
		if (blkg->td == td)
			return blkg;
	return NULL;
}

struct blkcg_gq *blkg_alloc(struct blkcg *blkcg, struct throtl_data *td, struct blkcg_gq *parent,
			    gfp_t gfp)
{
	struct blkcg_gq *blkg = kzalloc(sizeof(*blkg), gfp);

	if (!blkg)
		return NULL;
	blkg->blkcg = blkcg;
	blkg->td = td;
	blkg->parent = parent;
	blkg->online = true;
	INIT_LIST_HEAD(&blkg->blkcg_node);
	INIT_LIST_HEAD(&blkg->td_node);
	throtl_grp_init(&blkg->tg, td, parent ? &parent->tg : NULL);
	iocg_early_init(&blkg->iocg);
	return blkg;
}

static struct blkcg_gq *blkg_lookup_locked(struct blkcg *blkcg, struct throtl_data *td)
{
	struct blkcg_gq *blkg;
	unsigned long flags;

	spin_lock_irqsave(&blkcg_lock, flags);
	blkg = blkg_lookup(blkcg, td);
	spin_unlock_irqrestore(&blkcg_lock, flags);
	return blkg;
}

/* Ancestors first, so that a group's parent always exists when it is linked. */
struct blkcg_gq *blkg_lookup_create(struct blkcg *blkcg, struct throtl_data *td, gfp_t gfp)
{
	struct blkcg_gq *blkg = blkg_lookup_locked(blkcg, td), *parent, *new;
	unsigned long flags;

	if (blkg && READ_ONCE(blkg->online))
		return blkg;
	if (blkcg_is_root(blkcg))
		return td->root_blkg;
	/* retired, or offline without a group here: no new group for a dead cgroup */
	if (blkg || css_is_dying(&blkcg->css))
		return blkg_lookup_create(blkcg_parent(blkcg), td, gfp);
	parent = blkg_lookup_create(blkcg_parent(blkcg), td, gfp);
	new = blkg_alloc(blkcg, td, parent, gfp);
	if (!new)
		return parent; /* limited by the ancestors' limits only, for now */
	spin_lock_irqsave(&blkcg_lock, flags);
	blkg = blkg_lookup(blkcg, td); /* someone else may have won while we allocated */
	if (!blkg) {
		blkg_link(new);
		blkg = new;
		new = NULL;
	}
	spin_unlock_irqrestore(&blkcg_lock, flags);
	kfree(new);
	return blkg;
}

/* ---------------------------------------------------------------- online pins */

void blkcg_pin_online(struct blkcg *blkcg)
{
	BUG_ON(__atomic_fetch_add(&blkcg->online_pin, 1, __ATOMIC_RELAXED) <= 0);
}

/* New bios pass blkcg's groups by; the bios they hold leave at their limits. */
static void blkcg_destroy_blkgs(struct blkcg *blkcg)
{
	struct blkcg_gq *blkg;
	unsigned long flags;

	spin_lock_irqsave(&blkcg_lock, flags);
	list_for_each_entry(blkg, &blkcg->blkgs, blkcg_node)
		WRITE_ONCE(blkg->online, false);
	spin_unlock_irqrestore(&blkcg_lock, flags);
}

/* A blkcg's last pin is one of its parent's: the retirement climbs while pins run out. */
void blkcg_unpin_online(struct blkcg *blkcg)
{
	for (; blkcg; blkcg = blkcg_parent(blkcg)) {
		int left = __atomic_sub_fetch(&blkcg->online_pin, 1, __ATOMIC_ACQ_REL);

		BUG_ON(left < 0);
		if (left)
			break;
		blkcg_destroy_blkgs(blkcg);
	}
}

/* ---------------------------------------------------------------- the controller */

struct blkcg *blkcg_alloc(struct blkcg *parent)
{
	struct blkcg *blkcg = kzalloc(sizeof(*blkcg), GFP_KERNEL);

	if (!blkcg)
		return NULL;
	INIT_LIST_HEAD(&blkcg->blkgs);
	INIT_LIST_HEAD(&blkcg->cgwb_list);
	blkcg->online_pin = 1; /* dropped when it goes offline */
	blkcg->ioc_dfl_weight = CGROUP_WEIGHT_DFL;
	if (!parent)
		blkcg_root = blkcg;
	return blkcg;
}

/* A child's groups need their parent's: the child holds a pin on it until it retires. */
void blkcg_online(struct blkcg *blkcg)
{
	struct blkcg *parent = blkcg_parent(blkcg);

	if (parent)
		blkcg_pin_online(parent);
}

/* Tasks now use an ancestor's blkcg; our limits stay in force until our wbs are released. */
void blkcg_offline(struct blkcg *blkcg)
{
	blkcg_unpin_online(blkcg);
}

void blkcg_free(struct blkcg *blkcg)
{
	struct blkcg_gq *blkg, *next;
	LIST_HEAD(dead);
	unsigned long flags;

	spin_lock_irqsave(&blkcg_lock, flags);
	list_for_each_entry_safe(blkg, next, &blkcg->blkgs, blkcg_node) {
		spin_lock(&blkg->td->lock);
		list_del_init(&blkg->td_node);
		throtl_grp_exit(&blkg->tg);
		spin_unlock(&blkg->td->lock);
		list_move(&blkg->blkcg_node, &dead);
	}
	spin_unlock_irqrestore(&blkcg_lock, flags);
	list_for_each_entry_safe(blkg, next, &dead, blkcg_node) {
		iocg_exit(&blkg->iocg);
		kfree(blkg);
	}
	if (blkcg == blkcg_root)
		blkcg_root = NULL;
	kfree(blkcg);
}

/* ---------------------------------------------------------------- debt's delay */
/*
 * io.cost charges IO that could not wait to its group as debt and, while the debt is
 * large, asks the group's tasks to pause (Linux's blkcg_set_delay() and
 * blkcg_maybe_throttle_current()). Linux keeps the delay per disk and makes only the
 * tasks that issued such IO pay it on their way back to user space; cgwb keeps the latest
 * per cgroup and makes every task of the group pay it where it dirties pages.
 *
 * The debt of expedited writeback (blk-throttle-debt.c, and io.cost's of it) holds the
 * group's dirtiers until it is paid, in pauses of at most 250 ms: a dirtier let go after
 * one pause would dirty on at the disk's speed while the commits that take its data keep
 * adding to the debt.
 */
void blkg_set_delay(struct blkcg_gq *blkg, u64 delay_ns)
{
	WRITE_ONCE(blkg->blkcg->delay_nsec, delay_ns);
}

void blkg_note_throtl_debt(struct blkcg_gq *blkg, unsigned long end)
{
	if (time_after(end, READ_ONCE(blkg->blkcg->throtl_debt_end)))
		WRITE_ONCE(blkg->blkcg->throtl_debt_end, end);
}

void blkg_note_ioc_debt(struct blkcg_gq *blkg, unsigned long end)
{
	WRITE_ONCE(blkg->blkcg->ioc_debt_end, end);
}

/*
 * The longest io.cost delay of blkcg and its ancestors, and when the last of their
 * expedited writeback's debts is paid.
 */
static u64 blkcg_debt_delay(struct blkcg *blkcg, unsigned long *debt_end)
{
	u64 delay = 0;

	*debt_end = jiffies;
	for (; blkcg; blkcg = blkcg_parent(blkcg)) {
		unsigned long throtl_end = READ_ONCE(blkcg->throtl_debt_end);
		unsigned long ioc_end = READ_ONCE(blkcg->ioc_debt_end);

		delay = max(delay, READ_ONCE(blkcg->delay_nsec));
		if (time_after(throtl_end, *debt_end))
			*debt_end = throtl_end;
		if (ioc_end && time_after(ioc_end, *debt_end))
			*debt_end = ioc_end;
	}
	return delay;
}

/* Sleep ns, at least a tick, at most 250 ms, as an IO stall (pressure stall information). */
static void blkcg_pause(u64 ns)
{
	int token = io_schedule_prepare();

	schedule_timeout_uninterruptible(
		(long)max(min(ns, 250 * NSEC_PER_MSEC) / (NSEC_PER_SEC / HZ), (u64)1));
	io_schedule_finish(token);
}

void blkcg_maybe_throttle_current(void)
{
	unsigned long debt_end;
	u64 delay;

	if (!blkcg_root || in_atomic())
		return;
	delay = blkcg_debt_delay(task_blkcg(current), &debt_end);
	/* io.cost: one pause of at least a tick, as Linux */
	if (delay >= NSEC_PER_SEC / HZ)
		blkcg_pause(delay);
	while (time_after(debt_end, jiffies) && !fatal_signal_pending(current)) {
		blkcg_pause((u64)(debt_end - jiffies) * (NSEC_PER_SEC / HZ));
		blkcg_debt_delay(task_blkcg(current), &debt_end);
	}
}

/* ---------------------------------------------------------------- expedited writeback */
bool bio_expedited(const struct bio *bio)
{
	struct address_space *mapping = bio_writeback_mapping(bio);

	return mapping && __atomic_load_n(&mapping->nr_expedited, __ATOMIC_SEQ_CST);
}

/*
 * The mark comes first, with a full barrier, then the look for bios already held: each
 * controller looks under the lock it asks bio_expedited() under, so a bio is either held
 * before the look and found, or asks after it and sees the mark.
 */
void blkcg_expedite_begin(struct block_device *bdev, struct address_space *mapping)
{
	__atomic_fetch_add(&mapping->nr_expedited, 1, __ATOMIC_SEQ_CST);
	if (!blkcg_root)
		return;
	blk_throtl_expedite(bdev->bd_disk, mapping);
	blk_iocost_expedite(bdev->bd_disk, mapping);
}

/* The root's IO goes as it comes: io.max has no root limits, io.cost issues it at once. */
bool blkcg_may_hold_writes(struct blkcg *blkcg, struct gendisk *disk)
{
	if (!blkcg || blkcg_is_root(blkcg))
		return false;
	return blk_iocost_enabled(disk) || blk_throtl_limits_writes(blkcg, disk);
}

void blkcg_expedite_end(struct address_space *mapping)
{
	WARN_ON_ONCE(!__atomic_load_n(&mapping->nr_expedited, __ATOMIC_RELAXED));
	__atomic_fetch_sub(&mapping->nr_expedited, 1, __ATOMIC_SEQ_CST);
}

/* ---------------------------------------------------------------- io.stat's counters */
/*
 * Bytes and IOs per direction that each io cgroup sent to each disk, counted as a bio
 * leaves the throttler for the device (a held bio counts when it is released), charged to
 * the bio's blkcg and every ancestor: like Linux's, a parent's figures include its
 * descendants', and stay when a child goes.
 */
static enum blkg_iostat_type bio_iostat_type(const struct bio *bio)
{
	return op_is_write(bio_op(bio)) ? BLKG_IOSTAT_WRITE : BLKG_IOSTAT_READ;
}

void blkg_account_io(struct blkcg_gq *blkg, const struct bio *bio)
{
	enum blkg_iostat_type type = bio_iostat_type(bio);
	unsigned long flags;

	spin_lock_irqsave(&blkcg_lock, flags);
	for (; blkg; blkg = blkg->parent) {
		blkg->iostat.bytes[type] += bio->bi_size;
		blkg->iostat.ios[type]++;
	}
	spin_unlock_irqrestore(&blkcg_lock, flags);
}

void blkcg_account_io(struct bio *bio)
{
	struct throtl_data *td;

	if (bio_op(bio) == REQ_OP_FLUSH || !blkcg_root)
		return;
	td = blk_throtl_td(bio->bi_bdev->bd_disk);
	if (td)
		blkg_account_io(blkg_lookup_create(bio->bi_blkcg ? bio->bi_blkcg : blkcg_root, td,
						   GFP_NOIO),
				bio);
}

void blkcg_iostat_read(struct blkcg *blkcg, struct gendisk *disk, struct blkg_iostat *st)
{
	struct throtl_data *td = blk_throtl_td_lookup(disk);
	struct blkcg_gq *blkg;
	unsigned long flags;

	memset(st, 0, sizeof(*st));
	if (!td)
		return;
	spin_lock_irqsave(&blkcg_lock, flags);
	blkg = blkg_lookup(blkcg, td);
	if (blkg)
		*st = blkg->iostat;
	spin_unlock_irqrestore(&blkcg_lock, flags);
}

u64 blkcg_disk_wbytes(struct blkcg *blkcg, struct gendisk *disk)
{
	struct blkg_iostat st;

	blkcg_iostat_read(blkcg, disk, &st);
	return st.bytes[BLKG_IOSTAT_WRITE];
}
