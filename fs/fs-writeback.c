/*
 * Dirty inodes and their wb lists (the list half of Linux's fs/fs-writeback.c): marking an
 * inode dirty, keeping b_dirty ordered by dirtied_when, selecting inodes for a flusher pass,
 * putting them back afterwards, and writing one inode. The flusher loop that drives this
 * is fs/fs-writeback-flusher.c.
 *
 * Locks, outer to inner: wb->list_lock -> inode->i_lock -> mapping i_pages lock; the
 * flusher's wake-up (wb->work_lock) nests inside i_lock in __mark_inode_dirty().
 */
#include <cgwb/fs.h>
#include <cgwb/backing-dev.h>
#include <cgwb/writeback.h>
#include <cgwb/pagemap.h>
#include <cgwb/sched.h>
#include <cgwb/jiffies.h>
#include <cgwb/bug.h>
#include <cgwb/trace/writeback.h>
#include "internal.h"

/* Waiters for I_SYNC to clear (one queue: there are few such waits at a time). */
static DECLARE_WAIT_QUEUE_HEAD(inode_sync_wq);

struct inode *wb_inode(struct list_head *head)
{
	return list_entry(head, struct inode, i_io_list);
}

/* The wb's lists went from empty to populated: it has dirty IO now. list_lock held. */
void wb_io_lists_populated(struct bdi_writeback *wb)
{
	if (wb_has_dirty_io(wb))
		return;
	set_bit(WB_has_dirty_io, &wb->state);
	WARN_ON_ONCE(!wb->avg_write_bandwidth);
	__atomic_fetch_add(&wb->bdi->tot_write_bandwidth, wb->avg_write_bandwidth, __ATOMIC_RELAXED);
}

void wb_io_lists_depopulated(struct bdi_writeback *wb)
{
	if (wb_has_dirty_io(wb) && list_empty(&wb->b_dirty) && list_empty(&wb->b_io) &&
	    list_empty(&wb->b_more_io)) {
		clear_bit(WB_has_dirty_io, &wb->state);
		WARN_ON_ONCE(__atomic_fetch_sub(&wb->bdi->tot_write_bandwidth, wb->avg_write_bandwidth,
						__ATOMIC_RELAXED) < wb->avg_write_bandwidth);
		/* a killed wb just became clean: its inodes can move to the ancestor now */
		if (wb_dying(wb))
			cgwb_schedule_cleanup();
	}
}

/* Move inode to head (one of wb's lists); returns true if that populated the IO lists. */
bool inode_io_list_move_locked(struct inode *inode, struct bdi_writeback *wb, struct list_head *head)
{
	list_move(&inode->i_io_list, head);
	if (head != &wb->b_dirty_time) {
		bool was = wb_has_dirty_io(wb);
		wb_io_lists_populated(wb);
		return !was;
	}
	wb_io_lists_depopulated(wb);
	return false;
}

/* A clean inode: park it on the cgwb's b_attached, or take it off the root wb's lists. */
void inode_cgwb_move_to_attached(struct inode *inode, struct bdi_writeback *wb)
{
	inode->i_state &= ~I_SYNC_QUEUED;
	if (wb != &wb->bdi->wb)
		list_move(&inode->i_io_list, &wb->b_attached);
	else
		list_del_init(&inode->i_io_list);
	wb_io_lists_depopulated(wb);
}

/*
 * The wb the inode belongs to, its list locked; i_lock held on entry and on return. i_wb
 * changes under both locks and list_lock nests outside i_lock, so i_lock is let go for the
 * list and the wb confirmed after. Across that gap the wb is held by a reference of our
 * own, as Linux's: a switch may move the inode away meanwhile and drop the old wb's last
 * reference, and the list lock would be taken in freed memory.
 */
static struct bdi_writeback *locked_inode_to_wb_and_lock_list(struct inode *inode)
{
	for (;;) {
		struct bdi_writeback *wb = inode_to_wb(inode);

		wb_get(wb);
		spin_unlock(&inode->i_lock);
		spin_lock(&wb->list_lock);
		spin_lock(&inode->i_lock);
		if (wb == inode_to_wb(inode)) {
			wb_put(wb); /* the inode holds one */
			return wb;
		}
		spin_unlock(&inode->i_lock);
		spin_unlock(&wb->list_lock);
		wb_put(wb);
		spin_lock(&inode->i_lock);
	}
}

/* The same without i_lock (taken for the look, let go on return). */
struct bdi_writeback *inode_to_wb_and_lock_list(struct inode *inode)
{
	struct bdi_writeback *wb;

	spin_lock(&inode->i_lock);
	wb = locked_inode_to_wb_and_lock_list(inode);
	spin_unlock(&inode->i_lock);
	return wb;
}

void inode_io_list_del(struct inode *inode)
{
	struct bdi_writeback *wb = inode_to_wb_and_lock_list(inode);

	spin_lock(&inode->i_lock);
	inode->i_state &= ~I_SYNC_QUEUED;
	list_del_init(&inode->i_io_list);
	wb_io_lists_depopulated(wb);
	spin_unlock(&inode->i_lock);
	spin_unlock(&wb->list_lock);
}

/*
 * Put an inode back on b_dirty for a later pass, keeping b_dirty sorted newest-first: if it
 * is older than the newest inode there, it is refreshed to now.
 */
void redirty_tail_locked(struct inode *inode, struct bdi_writeback *wb)
{
	inode->i_state &= ~I_SYNC_QUEUED;
	if (inode->i_state & I_FREEING) {
		list_del_init(&inode->i_io_list);
		wb_io_lists_depopulated(wb);
		return;
	}
	if (!list_empty(&wb->b_dirty)) {
		struct inode *tail = wb_inode(wb->b_dirty.next);
		if (time_before(inode->dirtied_when, tail->dirtied_when))
			inode->dirtied_when = jiffies;
	}
	inode_io_list_move_locked(inode, wb, &wb->b_dirty);
}

void redirty_tail(struct inode *inode, struct bdi_writeback *wb)
{
	spin_lock(&inode->i_lock);
	redirty_tail_locked(inode, wb);
	spin_unlock(&inode->i_lock);
}

/* Another pass is needed (chunk used up, or busy): b_more_io. */
void requeue_io(struct inode *inode, struct bdi_writeback *wb)
{
	inode_io_list_move_locked(inode, wb, &wb->b_more_io);
}

void inode_sync_complete_locked(struct inode *inode)
{
	inode->i_state &= ~I_SYNC;
	smp_mb();
	wake_up_all(&inode_sync_wq);
}

static bool inode_not_syncing(struct inode *inode)
{
	return !(READ_ONCE(inode->i_state) & I_SYNC);
}

void inode_wait_for_writeback(struct inode *inode)
{
	wait_event(inode_sync_wq, inode_not_syncing(inode));
}

/* Called with i_lock held; returns with it dropped, after I_SYNC cleared. */
void inode_sleep_on_writeback(struct inode *inode)
{
	bool sleep = inode->i_state & I_SYNC;

	spin_unlock(&inode->i_lock);
	if (sleep)
		wait_event(inode_sync_wq, inode_not_syncing(inode));
}

/*
 * Move inodes dirtied no later than dirtied_before from the tail of delaying_queue to
 * dispatch_queue, marking them I_SYNC_QUEUED; keep each superblock's inodes together
 * (age order within one superblock). Returns how many moved.
 */
static int move_expired_inodes(struct list_head *delaying_queue, struct list_head *dispatch_queue,
			       unsigned long dirtied_before)
{
	LIST_HEAD(tmp);
	struct super_block *sb = NULL;
	bool do_sb_sort = false;
	int moved = 0;

	while (!list_empty(delaying_queue)) {
		struct inode *inode = wb_inode(delaying_queue->prev);
		if (time_after(inode->dirtied_when, dirtied_before))
			break;
		list_move(&inode->i_io_list, &tmp);
		moved++;
		spin_lock(&inode->i_lock);
		inode->i_state |= I_SYNC_QUEUED;
		spin_unlock(&inode->i_lock);
		if (sb && sb != inode->i_sb)
			do_sb_sort = true;
		sb = inode->i_sb;
	}
	if (!do_sb_sort) {
		list_splice_init(&tmp, dispatch_queue);
		return moved;
	}
	/* several superblocks: move one superblock's inodes at a time, oldest first */
	while (!list_empty(&tmp)) {
		struct list_head *pos = tmp.prev, *prev;
		sb = wb_inode(pos)->i_sb;
		for (; pos != &tmp; pos = prev) {
			prev = pos->prev;
			if (wb_inode(pos)->i_sb == sb)
				list_move(pos, dispatch_queue);
		}
	}
	return moved;
}

/*
 * Fill b_io for a pass: b_more_io first (they keep their order), then b_dirty inodes
 * old enough, then b_dirty_time inodes whose timestamps expired. list_lock held.
 */
void queue_io(struct bdi_writeback *wb, struct wb_writeback_work *work, unsigned long dirtied_before)
{
	int moved;
	unsigned long time_expire_jif = dirtied_before;

	list_splice_init(&wb->b_more_io, &wb->b_io);
	moved = move_expired_inodes(&wb->b_dirty, &wb->b_io, dirtied_before);
	if (!work->for_sync)
		time_expire_jif = jiffies - (unsigned long)dirtytime_expire_interval * HZ;
	moved += move_expired_inodes(&wb->b_dirty_time, &wb->b_io, time_expire_jif);
	if (moved || !list_empty(&wb->b_io))
		wb_io_lists_populated(wb);
	trace_writeback_queue_io(wb, work, dirtied_before, moved);
}

static int write_inode(struct inode *inode, struct writeback_control *wbc)
{
	int ret = 0;

	if (inode->i_sb->s_op->write_inode) {
		trace_writeback_write_inode_start(inode, wbc);
		ret = inode->i_sb->s_op->write_inode(inode, wbc);
		trace_writeback_write_inode(inode, wbc);
	}
	return ret;
}

/*
 * Write an inode's dirty pages and, if needed, the inode itself. The caller holds
 * I_SYNC. Only WB_SYNC_ALL waits for the data IO to finish.
 */
int __writeback_single_inode(struct inode *inode, struct writeback_control *wbc)
{
	struct address_space *mapping = inode->i_mapping;
	unsigned long nr_to_write = (unsigned long)wbc->nr_to_write;
	unsigned int dirty;
	int ret;

	WARN_ON(!(inode->i_state & I_SYNC));
	trace_writeback_single_inode_start(inode, wbc, nr_to_write);
	ret = do_writepages(mapping, wbc);
	if (wbc->sync_mode == WB_SYNC_ALL && !wbc->for_sync) {
		int err = filemap_fdatawait_range(mapping, 0, (loff_t)(~0ULL >> 1));
		if (!ret)
			ret = err;
	}

	/*
	 * Lazy timestamps that are due become the inode's dirtiness, through the filesystem
	 * (its dirty_inode: ext4 journals the inode), as Linux's mark_inode_dirty_sync() here.
	 */
	if ((READ_ONCE(inode->i_state) & I_DIRTY_TIME) &&
	    (wbc->sync_mode == WB_SYNC_ALL ||
	     time_after(jiffies,
			inode->dirtied_time_when + (unsigned long)dirtytime_expire_interval * HZ)))
		mark_inode_dirty_sync(inode);
	spin_lock(&inode->i_lock);
	dirty = inode->i_state & I_DIRTY;
	inode->i_state &= ~dirty;
	/* pairs with __mark_inode_dirty's lockless check: a racing dirtier re-sets the flag */
	smp_mb();
	if (mapping_tagged(mapping, PAGECACHE_TAG_DIRTY))
		inode->i_state |= I_DIRTY_PAGES;
	spin_unlock(&inode->i_lock);

	if (dirty & ~I_DIRTY_PAGES) {
		int err = write_inode(inode, wbc);
		if (!ret)
			ret = err;
	}
	trace_writeback_single_inode(inode, wbc, nr_to_write);
	return ret;
}

/*
 * Put an inode back after a flusher wrote it. list_lock and i_lock held.
 */
void requeue_inode(struct inode *inode, struct bdi_writeback *wb, struct writeback_control *wbc,
		   unsigned long dirtied_before)
{
	if (inode->i_state & I_FREEING)
		return;
	/* one integrity pass never chases the same inode twice */
	if ((inode->i_state & I_DIRTY) && (wbc->sync_mode == WB_SYNC_ALL || wbc->tagged_writepages))
		inode->dirtied_when = jiffies;

	if (wbc->pages_skipped) {
		if (inode->i_state & I_DIRTY_ALL)
			redirty_tail_locked(inode, wb);
		else
			inode_cgwb_move_to_attached(inode, wb);
		return;
	}
	if (mapping_tagged(inode->i_mapping, PAGECACHE_TAG_DIRTY)) {
		/* pages left: the chunk ran out (continue in the next turn) or something blocked */
		if (wbc->nr_to_write <= 0 && !time_after(inode->dirtied_when, dirtied_before))
			requeue_io(inode, wb);
		else
			redirty_tail_locked(inode, wb);
	} else if (inode->i_state & I_DIRTY) {
		redirty_tail_locked(inode, wb);
	} else if (inode->i_state & I_DIRTY_TIME) {
		inode->dirtied_when = jiffies;
		inode_io_list_move_locked(inode, wb, &wb->b_dirty_time);
		inode->i_state &= ~I_SYNC_QUEUED;
	} else {
		inode_cgwb_move_to_attached(inode, wb);
	}
}

/*
 * Write one inode outside the flusher (eviction, write_inode_now, fsync of metadata) and
 * put it on the list its new state calls for.
 */
int writeback_single_inode(struct inode *inode, struct writeback_control *wbc)
{
	struct bdi_writeback *wb;
	int ret = 0;

	spin_lock(&inode->i_lock);
	if (inode->i_state & I_SYNC) {
		if (wbc->sync_mode != WB_SYNC_ALL)
			goto out;
		/* an integrity write must wait for the current one and then write itself */
		while (inode->i_state & I_SYNC) {
			inode_sleep_on_writeback(inode);
			spin_lock(&inode->i_lock);
		}
	}
	if (!(inode->i_state & I_DIRTY_ALL) &&
	    (wbc->sync_mode != WB_SYNC_ALL ||
	     !mapping_tagged(inode->i_mapping, PAGECACHE_TAG_WRITEBACK)))
		goto out;
	inode->i_state |= I_SYNC;
	wbc_attach_and_unlock_inode(wbc, inode);

	ret = __writeback_single_inode(inode, wbc);

	wbc_detach_inode(wbc);
	wb = inode_to_wb_and_lock_list(inode);
	spin_lock(&inode->i_lock);
	if (!(inode->i_state & I_FREEING)) {
		if (!(inode->i_state & I_DIRTY_ALL))
			inode_cgwb_move_to_attached(inode, wb);
		else if (!(inode->i_state & I_SYNC_QUEUED) && (inode->i_state & I_DIRTY))
			redirty_tail_locked(inode, wb);
		else if (inode->i_state & I_DIRTY_TIME)
			inode_io_list_move_locked(inode, wb, &wb->b_dirty_time);
	}
	spin_unlock(&wb->list_lock);
	inode_sync_complete_locked(inode);
out:
	spin_unlock(&inode->i_lock);
	return ret;
}

int write_inode_now(struct inode *inode, int sync)
{
	struct writeback_control wbc = {
		.nr_to_write = LONG_MAX,
		.sync_mode = sync ? WB_SYNC_ALL : WB_SYNC_NONE,
		.range_start = 0,
		.range_end = LLONG_MAX,
	};

	if (!bdi_cap_writeback(inode_to_bdi(inode)))
		wbc.nr_to_write = 0;
	return writeback_single_inode(inode, &wbc);
}

int sync_inode_metadata(struct inode *inode, int wait)
{
	struct writeback_control wbc = {
		.sync_mode = wait ? WB_SYNC_ALL : WB_SYNC_NONE, .nr_to_write = 0, /* metadata only */
	};

	return writeback_single_inode(inode, &wbc);
}

/*
 * Mark an inode dirty. flags: I_DIRTY_SYNC / I_DIRTY_DATASYNC (metadata),
 * I_DIRTY_PAGES (its mapping has dirty pages), I_DIRTY_TIME (lazy timestamps).
 */
void __mark_inode_dirty(struct inode *inode, int flags)
{
	struct super_block *sb = inode->i_sb;
	unsigned int dirtytime = (unsigned int)flags & I_DIRTY_TIME;
	struct bdi_writeback *wb = NULL;

	trace_writeback_mark_inode_dirty(inode, flags);
	if (flags & I_DIRTY_INODE) {
		trace_writeback_dirty_inode_start(inode, flags);
		if (sb->s_op->dirty_inode)
			sb->s_op->dirty_inode(inode, flags & (I_DIRTY_INODE | I_DIRTY_TIME));
		trace_writeback_dirty_inode(inode, flags);
		flags &= ~I_DIRTY_TIME;
		dirtytime = 0;
	}

	/* the flusher clears flags before re-checking the pages with a barrier in between */
	smp_mb();
	if ((inode->i_state & (unsigned int)flags) == (unsigned int)flags &&
	    !(dirtytime && (inode->i_state & I_DIRTY_INODE)))
		return;
	if (dirtytime && (inode->i_state & I_DIRTY_INODE))
		return;

	spin_lock(&inode->i_lock);
	if ((inode->i_state & (unsigned int)flags) != (unsigned int)flags) {
		unsigned int was_dirty = inode->i_state & I_DIRTY;

		inode_attach_wb(inode, NULL);
		if (flags & I_DIRTY_INODE)
			inode->i_state &= ~I_DIRTY_TIME;
		inode->i_state |= (unsigned int)flags;

		/* the flusher owns placement of an inode it queued; unhashed inodes are not written */
		if (inode->i_state & I_SYNC_QUEUED)
			goto out_unlock;
		if (inode_unhashed(inode) && !S_ISBLK(inode->i_mode))
			goto out_unlock;
		if (inode->i_state & I_FREEING)
			goto out_unlock;

		if (!was_dirty) {
			struct list_head *dirty_list;
			bool wakeup_bdi;

			wb = locked_inode_to_wb_and_lock_list(inode);
			inode->dirtied_when = jiffies;
			if (dirtytime)
				inode->dirtied_time_when = jiffies;
			if (inode->i_state & I_DIRTY)
				dirty_list = &wb->b_dirty;
			else
				dirty_list = &wb->b_dirty_time;
			wakeup_bdi = inode_io_list_move_locked(inode, wb, dirty_list);
			/*
			 * The flusher is woken before the locks go, as Linux's now is: once i_lock
			 * is let go, a switch may move the inode away and drop the wb's last
			 * reference.
			 */
			if (wakeup_bdi && bdi_cap_writeback(wb->bdi))
				wb_wakeup_delayed(wb);
			spin_unlock(&wb->list_lock);
			spin_unlock(&inode->i_lock);
			return;
		}
	}
out_unlock:
	spin_unlock(&inode->i_lock);
}

void sb_mark_inode_writeback(struct inode *inode)
{
	struct super_block *sb = inode->i_sb;
	unsigned long flags;

	spin_lock_irqsave(&sb->s_inode_wblist_lock, flags);
	if (list_empty(&inode->i_wb_list))
		list_add_tail(&inode->i_wb_list, &sb->s_inodes_wb);
	spin_unlock_irqrestore(&sb->s_inode_wblist_lock, flags);
}

void sb_clear_inode_writeback(struct inode *inode)
{
	struct super_block *sb = inode->i_sb;
	unsigned long flags;

	spin_lock_irqsave(&sb->s_inode_wblist_lock, flags);
	list_del_init(&inode->i_wb_list);
	spin_unlock_irqrestore(&sb->s_inode_wblist_lock, flags);
}
