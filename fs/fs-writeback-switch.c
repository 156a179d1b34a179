/*
 * Switching an inode's writeback to another wb (Linux's inode_switch_wbs() and
 * cleanup_offline_cgwb()): to the group that really dirties it (wbc_detach_inode), to the
 * memcg's new wb when its io cgroup changed, or, for a dying wb, to the nearest living
 * ancestor's.
 *
 * Phase 1 (inode_switch_wbs, any context) marks the inode I_WB_SWITCH, pins it and queues a
 * context behind an RCU grace period; phase 2 (a worker) moves each inode's dirty and
 * writeback page counts from the old wb to the new one, its list place (sorted into b_dirty
 * by dirtied_when) and its wb reference, then clears I_WB_SWITCH. I_WB_SWITCH keeps a second
 * switch of the same inode from being queued; isw_nr_in_flight bounds the queue and lets
 * unmount wait for it.
 *
 * The grace period, as Linux's: the page-count updaters that do not hold the i_pages lock
 * (clearing dirty for IO, cancelling, redirtying) run inside unlocked_inode_to_wb_begin/end,
 * an RCU read-side section that takes the lock only if it sees I_WB_SWITCH. By the time
 * phase 2 runs, every such section that began before I_WB_SWITCH was visible has ended, and
 * every later one takes the lock phase 2 holds while it moves the counts and i_wb: on any
 * CPU, no update lands on the old wb after its counts moved.
 *
 * Lock order in phase 2: bdi->wb_switch_rwsem (read: no switch during sync_inodes_sb) ->
 * both wbs' list_lock, lower address first -> inode->i_lock -> the mapping's i_pages lock.
 */
#include <cgwb/fs.h>
#include <cgwb/backing-dev.h>
#include <cgwb/memcontrol.h>
#include <cgwb/pagemap.h>
#include <cgwb/slab.h>
#include <cgwb/printk.h>
#include <cgwb/bug.h>
#include <cgwb/trace/writeback.h>
#include "internal.h"

#define WB_FRN_MAX_IN_FLIGHT 1024

struct inode_switch_wbs_context {
	struct bdi_writeback *new_wb;
	struct rcu_work work;
	unsigned int nr;
	struct inode *inodes[]; /* NULL-terminated */
};

/* a batch fits a 1 KiB allocation, like Linux's */
#define ISW_ALLOC_SIZE 1024
#define WB_MAX_INODES_PER_ISW \
	((ISW_ALLOC_SIZE - sizeof(struct inode_switch_wbs_context)) / sizeof(struct inode *))

/* contexts queued and not finished; raised before the SB_ACTIVE check (see umount) */
static int isw_nr_in_flight;
static DECLARE_WAIT_QUEUE_HEAD(isw_wait);

int wb_switches_in_flight(void)
{
	return READ_ONCE(isw_nr_in_flight);
}

/* Insert into wb->b_dirty keeping it sorted newest-first by dirtied_when. list_lock held. */
static void inode_io_list_insert_sorted(struct inode *inode, struct bdi_writeback *wb)
{
	struct inode *pos;

	list_for_each_entry(pos, &wb->b_dirty, i_io_list) {
		if (!time_after(pos->dirtied_when, inode->dirtied_when)) {
			list_add_tail(&inode->i_io_list, &pos->i_io_list);
			return;
		}
	}
	list_add_tail(&inode->i_io_list, &wb->b_dirty);
}

/* Move one inode's counts, reference and list place (Linux's inode_do_switch_wbs). */
static bool inode_do_switch_wbs(struct inode *inode, struct bdi_writeback *old_wb,
				struct bdi_writeback *new_wb)
{
	struct address_space *mapping = inode->i_mapping;
	unsigned long flags, index;
	struct page *page;
	s64 nr_dirty = 0, nr_writeback = 0;
	bool switched = false;

	spin_lock(&inode->i_lock);
	xa_lock_irqsave(&mapping->i_pages, flags);
	if (inode->i_state & (I_FREEING | I_WILL_FREE))
		goto out; /* eviction owns its list linkage */
	if (WARN_ON_ONCE(inode->i_wb != old_wb))
		goto out;
	trace_inode_switch_wbs(inode, old_wb, new_wb);

	/*
	 * The tags are at each folio's first index; a folio counts all its pages. The DIRTY
	 * tag may remain on a folio already cleaned for IO: count only dirty ones.
	 */
	xa_for_each_range(&mapping->i_pages, index, page, 0, ~0UL, PAGECACHE_TAG_DIRTY)
		nr_dirty += PageDirty(page) ? (s64)compound_nr(page) : 0;
	xa_for_each_range(&mapping->i_pages, index, page, 0, ~0UL, PAGECACHE_TAG_WRITEBACK)
		nr_writeback += (s64)compound_nr(page);
	/* one move each, as Linux: the counts are per CPU, a page at a time would fold often */
	if (nr_dirty) {
		wb_stat_mod(old_wb, WB_RECLAIMABLE, -nr_dirty);
		wb_stat_mod(new_wb, WB_RECLAIMABLE, nr_dirty);
	}
	if (nr_writeback) {
		wb_stat_mod(old_wb, WB_WRITEBACK, -nr_writeback);
		wb_stat_mod(new_wb, WB_WRITEBACK, nr_writeback);
	}
	if (mapping_tagged(mapping, PAGECACHE_TAG_WRITEBACK)) {
		__atomic_sub_fetch(&old_wb->writeback_inodes, 1, __ATOMIC_RELAXED);
		__atomic_add_fetch(&new_wb->writeback_inodes, 1, __ATOMIC_RELAXED);
	}
	wb_get(new_wb);

	if (!list_empty(&inode->i_io_list)) {
		WRITE_ONCE(inode->i_wb, new_wb);
		list_del_init(&inode->i_io_list);
		wb_io_lists_depopulated(old_wb);
		inode->i_state &= ~I_SYNC_QUEUED;
		if (inode->i_state & I_DIRTY_ALL) {
			inode_io_list_insert_sorted(inode, new_wb);
			wb_io_lists_populated(new_wb);
		} else {
			inode_cgwb_move_to_attached(inode, new_wb);
		}
	} else {
		WRITE_ONCE(inode->i_wb, new_wb);
	}
	/* a fresh vote: going back needs a new majority (and the group left is remembered) */
	inode->i_wb_frn_winner = 0;
	inode->i_wb_frn_avg_time = 0;
	inode->i_wb_frn_history = 0;
	inode->i_wb_frn_prev = mem_cgroup_id(wb_memcg(old_wb));
	switched = true;
out:
	smp_wmb(); /* a reader that sees the flag clear sees the new i_wb */
	inode->i_state &= ~I_WB_SWITCH;
	xa_unlock_irqrestore(&mapping->i_pages, flags);
	spin_unlock(&inode->i_lock);
	return switched;
}

static void inode_switch_wbs_work_fn(struct work_struct *work)
{
	struct inode_switch_wbs_context *isw =
		container_of(to_rcu_work(work), struct inode_switch_wbs_context, work);
	struct bdi_writeback *new_wb = isw->new_wb;
	struct backing_dev_info *bdi = new_wb->bdi;
	struct bdi_writeback *old_wb = isw->inodes[0]->i_wb;
	unsigned int nr_switched = 0;

	/* no switch in the middle of a sync of this device */
	down_read(&bdi->wb_switch_rwsem);
	/* both list locks, lower address first */
	if (old_wb < new_wb) {
		spin_lock(&old_wb->list_lock);
		spin_lock(&new_wb->list_lock);
	} else {
		spin_lock(&new_wb->list_lock);
		spin_lock(&old_wb->list_lock);
	}
	for (unsigned int i = 0; isw->inodes[i]; i++)
		nr_switched += inode_do_switch_wbs(isw->inodes[i], old_wb, new_wb);
	spin_unlock(&new_wb->list_lock);
	spin_unlock(&old_wb->list_lock);
	up_read(&bdi->wb_switch_rwsem);

	if (nr_switched) {
		wb_wakeup(new_wb);
		for (unsigned int i = 0; i < nr_switched; i++)
			wb_put(old_wb); /* the switched inodes' references */
		/* the target died meanwhile (rmdir): its cleanup must see these inodes too */
		if (wb_dying(new_wb))
			cgwb_schedule_cleanup();
	}
	for (unsigned int i = 0; isw->inodes[i]; i++)
		iput(isw->inodes[i]);
	wb_put(new_wb); /* the context's reference */
	kfree(isw);
	__atomic_sub_fetch(&isw_nr_in_flight, 1, __ATOMIC_SEQ_CST);
	wake_up_all(&isw_wait);
}

/*
 * Mark the inode as switching and pin it. False if it cannot switch:
 * being freed, already switching, already on new_wb, or its filesystem going away.
 */
static bool inode_prepare_wbs_switch(struct inode *inode, struct bdi_writeback *new_wb)
{
	smp_mb(); /* pairs with the unmount check of isw_nr_in_flight */
	spin_lock(&inode->i_lock);
	if (!(inode->i_sb->s_flags & SB_ACTIVE) ||
	    (inode->i_state & (I_WB_SWITCH | I_FREEING | I_WILL_FREE)) ||
	    inode_to_wb(inode) == new_wb) {
		spin_unlock(&inode->i_lock);
		return false;
	}
	inode->i_state |= I_WB_SWITCH;
	spin_unlock(&inode->i_lock);
	if (!igrab(inode)) {
		spin_lock(&inode->i_lock);
		inode->i_state &= ~I_WB_SWITCH;
		spin_unlock(&inode->i_lock);
		return false;
	}
	return true;
}

/* A context for switches to new_wb, whose reference it takes over (and drops if none). */
static struct inode_switch_wbs_context *isw_alloc(struct bdi_writeback *new_wb)
{
	struct inode_switch_wbs_context *isw = kzalloc(ISW_ALLOC_SIZE, GFP_ATOMIC | __GFP_NOWARN);

	if (!isw) {
		wb_put(new_wb);
		return NULL;
	}
	INIT_RCU_WORK(&isw->work, inode_switch_wbs_work_fn);
	isw->new_wb = new_wb;
	__atomic_add_fetch(&isw_nr_in_flight, 1, __ATOMIC_SEQ_CST);
	return isw;
}

/* A context that switches nothing after all: isw_alloc() undone. */
static void isw_discard(struct inode_switch_wbs_context *isw)
{
	wb_put(isw->new_wb);
	kfree(isw);
	__atomic_sub_fetch(&isw_nr_in_flight, 1, __ATOMIC_SEQ_CST);
}

/* Phase 2 once the updaters that missed I_WB_SWITCH are done (see the top). */
static void isw_queue(struct inode_switch_wbs_context *isw)
{
	queue_rcu_work(bdi_wq, &isw->work);
}

/* Switch one inode to the wb of memcg new_memcg_id (foreign owner, stale association). */
void inode_switch_wbs(struct inode *inode, int new_memcg_id)
{
	struct backing_dev_info *bdi = inode_to_bdi(inode);
	struct cgroup_subsys_state *css;
	struct inode_switch_wbs_context *isw;
	struct bdi_writeback *new_wb;

	if (READ_ONCE(inode->i_state) & I_WB_SWITCH)
		return;
	if (wb_switches_in_flight() > WB_FRN_MAX_IN_FLIGHT)
		return;
	css = css_from_id(new_memcg_id, memory_cgrp_id);
	if (!css)
		return;
	new_wb = wb_get_create(bdi, mem_cgroup_from_css(css), GFP_ATOMIC);
	css_put(css);
	if (!new_wb)
		return;
	isw = isw_alloc(new_wb);
	if (!isw)
		return;
	if (!inode_prepare_wbs_switch(inode, new_wb)) {
		isw_discard(isw);
		return;
	}
	isw->inodes[0] = inode;
	isw->nr = 1;
	isw_queue(isw);
}

/* The nearest live ancestor's wb (the root's if none), referenced. */
static struct bdi_writeback *ancestor_wb(struct bdi_writeback *wb)
{
	for (struct mem_cgroup *memcg = parent_mem_cgroup(wb_memcg(wb)); memcg;
	     memcg = parent_mem_cgroup(memcg)) {
		if (css_is_dying(&memcg->css))
			continue;
		struct bdi_writeback *target = wb_get_create(wb->bdi, memcg, GFP_KERNEL);
		if (target)
			return target;
	}
	return &wb->bdi->wb;
}

/* Add the inodes of list to isw (up to its capacity); returns true if some are left. */
static bool isw_collect(struct inode_switch_wbs_context *isw, struct list_head *list,
			struct bdi_writeback *new_wb)
{
	struct inode *inode, *tmp;

	list_for_each_entry_safe(inode, tmp, list, i_io_list) {
		if (isw->nr >= WB_MAX_INODES_PER_ISW - 1)
			return true;
		if (inode_prepare_wbs_switch(inode, new_wb))
			isw->inodes[isw->nr++] = inode;
	}
	return false;
}

/*
 * Move a dying wb's clean (and timestamp-only dirty) inodes to the nearest live ancestor's
 * wb. Returns true if a batch filled up and another call is needed.
 */
bool cleanup_offline_cgwb(struct bdi_writeback *wb)
{
	struct bdi_writeback *new_wb = ancestor_wb(wb);
	struct inode_switch_wbs_context *isw = isw_alloc(new_wb);
	bool restart = false;

	if (!isw)
		return false;
	spin_lock(&wb->list_lock);
	restart = isw_collect(isw, &wb->b_attached, new_wb);
	if (!restart)
		restart = isw_collect(isw, &wb->b_dirty_time, new_wb);
	spin_unlock(&wb->list_lock);
	if (!isw->nr) {
		isw_discard(isw);
		return false;
	}
	/* the whole batch counts once in flight */
	isw_queue(isw);
	return restart;
}

/*
 * Unmount, from generic_shutdown_super() once SB_ACTIVE is clear: no switch may touch the
 * superblock after this returns. A switch that raced past the flag check had already
 * raised isw_nr_in_flight (isw_alloc comes before inode_prepare_wbs_switch's barrier and
 * check), so it is seen here and waited for; a later one sees the flag and gives up.
 */
void cgroup_writeback_umount(void)
{
	/* SB_ACTIVE cleared before the count is read: pairs with inode_prepare_wbs_switch() */
	smp_mb();
	wb_wait_for_switches();
}

void wb_wait_for_switches(void)
{
	if (wb_switches_in_flight())
		wait_event(isw_wait, !wb_switches_in_flight());
}
