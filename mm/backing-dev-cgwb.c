/*
 * Per-cgroup writeback contexts, as the cgwb half of Linux's mm/backing-dev.c (wb_get_create(),
 * cgwb_kill(), cleanup_offline_cgwbs_workfn()).
 *
 * A cgwb is keyed by the memory cgroup's css id on its bdi; its io cgroup is the effective
 * io css of that memcg's cgroup. Lookup checks that association, so enabling or disabling
 * the io controller above a group gives it a new wb and kills the old one. A cgwb starts
 * with one "index" reference held by cgwb_tree; inodes attached to it, writeback_controls
 * and pending switches hold more. Killing removes it from the index (no new inodes), marks
 * it dead (WB_REF_DEAD: wb_tryget() fails from then on) and drops the index reference; the
 * last put releases it from a worker.
 *
 * Lookup is lockless, as Linux's wb_get_lookup(): under rcu_read_lock(), xa_load() and
 * wb_tryget(). The race is a lookup that found the wb just before a kill on another CPU
 * erased it and the last put released it: its tryget fails (dead, or count zero), and the
 * memory it touched is still there because the release frees the wb a grace period later
 * (call_rcu; the css it pins are freed after a grace period of their own, cg/cgroup/css.c).
 * cgwb_lock serialises the writers (create, kill, release) and the lists.
 *
 * When a memcg goes offline its wbs are killed and a cleanup work moves their clean
 * inodes to the wb of the nearest live ancestor (fs/fs-writeback-switch.c); wbs with dirty inodes
 * are left for a later pass so their IO stays under the dead group's io limits, which
 * each cgwb keeps in force by pinning its blkcg online until it is released.
 */
#include <cgwb/backing-dev.h>
#include <cgwb/memcontrol.h>
#include <cgwb/blk-cgroup.h>
#include <cgwb/fs.h>
#include <cgwb/slab.h>
#include <cgwb/printk.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include <cgwb/rcupdate.h>
#include "internal.h"

static DEFINE_SPINLOCK(cgwb_lock);
static LIST_HEAD(offline_cgwbs);
static struct workqueue_struct *cgwb_release_wq;
static void cleanup_offline_cgwbs_workfn(struct work_struct *work);
static DECLARE_WORK(cleanup_offline_cgwbs_work, cleanup_offline_cgwbs_workfn);
static unsigned long cgwb_count;

struct mem_cgroup *wb_memcg(const struct bdi_writeback *wb)
{
	return wb->memcg ? wb->memcg : root_mem_cgroup;
}

struct blkcg *wb_blkcg(const struct bdi_writeback *wb)
{
	return wb->blkcg ? wb->blkcg : blkcg_root;
}

unsigned long nr_cgwbs(void)
{
	return READ_ONCE(cgwb_count);
}

bool inode_cgwb_enabled(struct inode *inode)
{
	struct backing_dev_info *bdi = inode_to_bdi(inode);

	return bdi_cap_writeback(bdi) && inode->i_sb && (inode->i_sb->s_iflags & SB_I_CGROUPWB);
}

/* ---------------------------------------------------------------- references */

/* The references in a refcnt word. */
static long wb_refs(long v)
{
	return v & ~WB_REF_DEAD;
}

void wb_get(struct bdi_writeback *wb)
{
	if (wb_is_root(wb))
		return;
	long old = __atomic_fetch_add(&wb->refcnt, 1, __ATOMIC_RELAXED);
	BUG_ON(wb_refs(old) <= 0);
}

/* A reference if the wb still has one and, unless dead_ok, was not killed. */
static bool wb_tryget_if(struct bdi_writeback *wb, bool dead_ok)
{
	long v = __atomic_load_n(&wb->refcnt, __ATOMIC_RELAXED);

	do {
		if (wb_refs(v) <= 0 || (!dead_ok && (v & WB_REF_DEAD)))
			return false;
	} while (!__atomic_compare_exchange_n(&wb->refcnt, &v, v + 1, false, __ATOMIC_ACQUIRE,
					      __ATOMIC_RELAXED));
	return true;
}

bool wb_tryget(struct bdi_writeback *wb)
{
	return wb_is_root(wb) || wb_tryget_if(wb, false);
}

void wb_put(struct bdi_writeback *wb)
{
	if (wb_is_root(wb))
		return;
	/* release: this holder's updates happen before the releaser's teardown */
	long old = __atomic_fetch_sub(&wb->refcnt, 1, __ATOMIC_ACQ_REL);
	BUG_ON(wb_refs(old) <= 0);
	if (wb_refs(old) == 1) {
		/* the index reference goes last, at the kill */
		WARN_ON_ONCE(!(old & WB_REF_DEAD));
		queue_work(cgwb_release_wq, &wb->release_work);
	}
}

/* Stop the wb's flusher for good: queued works complete without running. */
void wb_shutdown(struct bdi_writeback *wb)
{
	unsigned long flags;

	spin_lock_irqsave(&wb->work_lock, flags);
	clear_bit(WB_registered, &wb->state);
	spin_unlock_irqrestore(&wb->work_lock, flags);
	/* run it once more so queued works are completed, then stop it */
	mod_delayed_work(bdi_wq, &wb->dwork, 0);
	flush_delayed_work(&wb->dwork);
	cancel_delayed_work_sync(&wb->dwork);
	cancel_delayed_work_sync(&wb->bw_dwork);
}

static void cgwb_free_rcu(struct rcu_head *head)
{
	kfree(container_of(head, struct bdi_writeback, rcu));
}

static void cgwb_release_workfn(struct work_struct *work)
{
	struct bdi_writeback *wb = container_of(work, struct bdi_writeback, release_work);
	unsigned long flags;

	wb_shutdown(wb);
	WARN_ON_ONCE(!list_empty(&wb->b_attached) || wb_has_dirty_io(wb));
	WARN_ON_ONCE(wb_stat_sum(wb, WB_RECLAIMABLE) || wb_stat_sum(wb, WB_WRITEBACK));
	spin_lock_irqsave(&cgwb_lock, flags);
	list_del(&wb->bdi_node);
	list_del_init(&wb->offline_node);
	list_del_init(&wb->memcg_node);
	list_del_init(&wb->blkcg_node);
	cgwb_count--;
	spin_unlock_irqrestore(&cgwb_lock, flags);
	blkcg_unpin_online(wb->blkcg);
	css_put(&wb->memcg->css);
	css_put(&wb->blkcg->css);
	bdi_put(wb->bdi);
	wb_exit(wb);
	/* a lockless lookup may still be reading it: its wb_tryget() fails on the zero count */
	call_rcu(&wb->rcu, cgwb_free_rcu);
}

struct bdi_writeback *bdi_wb_next(struct backing_dev_info *bdi, struct bdi_writeback *pos)
{
	struct bdi_writeback *wb = NULL;
	struct list_head *next;
	unsigned long flags;

	spin_lock_irqsave(&cgwb_lock, flags);
	for (next = pos ? pos->bdi_node.next : bdi->wb_list.next; next != &bdi->wb_list;
	     next = next->next) {
		struct bdi_writeback *cand = list_entry(next, struct bdi_writeback, bdi_node);
		/* dying wbs too: they still write their inodes */
		if (wb_is_root(cand) || wb_tryget_if(cand, true)) {
			wb = cand;
			break;
		}
	}
	spin_unlock_irqrestore(&cgwb_lock, flags);
	if (pos)
		wb_put(pos);
	return wb;
}

/* ---------------------------------------------------------------- lookup and creation */

static struct blkcg *memcg_blkcg(struct mem_cgroup *memcg)
{
	return css_to_blkcg(cgroup_e_css(memcg->css.cgroup, io_cgrp_id));
}

struct bdi_writeback *wb_get_lookup(struct backing_dev_info *bdi, struct mem_cgroup *memcg)
{
	struct blkcg *blkcg;
	struct bdi_writeback *wb;

	if (mem_cgroup_is_root(memcg))
		return &bdi->wb;
	blkcg = memcg_blkcg(memcg);
	rcu_read_lock();
	wb = xa_load(&bdi->cgwb_tree, (unsigned long)mem_cgroup_id(memcg));
	/* wb->blkcg is set before the wb is published and never changes */
	if (wb && (wb->blkcg != blkcg || !wb_tryget(wb)))
		wb = NULL;
	rcu_read_unlock();
	return wb;
}

/*
 * Remove a wb from the index and the cgroup lists; it stays alive for its inodes. False if
 * it was dead already. cgwb_lock held.
 */
static bool cgwb_kill_locked(struct bdi_writeback *wb)
{
	if (__atomic_fetch_or(&wb->refcnt, WB_REF_DEAD, __ATOMIC_RELAXED) & WB_REF_DEAD)
		return false;
	if (xa_load(&wb->bdi->cgwb_tree, (unsigned long)mem_cgroup_id(wb->memcg)) == wb)
		xa_erase(&wb->bdi->cgwb_tree, (unsigned long)mem_cgroup_id(wb->memcg));
	list_del_init(&wb->memcg_node);
	list_del_init(&wb->blkcg_node);
	list_add_tail(&wb->offline_node, &offline_cgwbs);
	return true;
}

static void cgwb_kill(struct bdi_writeback *wb)
{
	unsigned long flags;

	spin_lock_irqsave(&cgwb_lock, flags);
	bool was_live = cgwb_kill_locked(wb);
	spin_unlock_irqrestore(&cgwb_lock, flags);
	if (was_live)
		wb_put(wb); /* the index reference */
}

static int cgwb_create(struct backing_dev_info *bdi, struct mem_cgroup *memcg, gfp_t gfp)
{
	struct blkcg *blkcg = memcg_blkcg(memcg);
	struct bdi_writeback *wb, *old;
	unsigned long flags;
	int err = 0;

	/* an entry for this memcg with another io cgroup is stale: the controller moved */
	spin_lock_irqsave(&cgwb_lock, flags);
	old = xa_load(&bdi->cgwb_tree, (unsigned long)mem_cgroup_id(memcg));
	bool stale = old && old->blkcg != blkcg && cgwb_kill_locked(old);
	spin_unlock_irqrestore(&cgwb_lock, flags);
	if (stale)
		wb_put(old);

	wb = kmalloc(sizeof(*wb), gfp | __GFP_NOWARN);
	if (!wb)
		return -ENOMEM;
	if (wb_init(wb, bdi, gfp | __GFP_NOWARN)) {
		kfree(wb);
		return -ENOMEM;
	}
	INIT_WORK(&wb->release_work, cgwb_release_workfn);
	wb->refcnt = 1; /* the index's; xa_insert() publishes the wb with it */
	wb->memcg = memcg;
	wb->blkcg = blkcg;
	set_bit(WB_registered, &wb->state);

	spin_lock_irqsave(&cgwb_lock, flags);
	if (!test_bit(WB_registered, &bdi->wb.state) || css_is_dying(&memcg->css) ||
	    css_is_dying(&blkcg->css)) {
		err = -ENODEV;
	} else {
		err = xa_insert(&bdi->cgwb_tree, (unsigned long)mem_cgroup_id(memcg), wb, GFP_ATOMIC);
		if (!err) {
			css_get(&memcg->css);
			css_get(&blkcg->css);
			/* what it writes after rmdir still goes at the group's io.max */
			blkcg_pin_online(blkcg);
			__atomic_fetch_add(&bdi->refcnt, 1, __ATOMIC_RELAXED);
			list_add_tail(&wb->bdi_node, &bdi->wb_list);
			list_add_tail(&wb->memcg_node, &memcg->cgwb_list);
			list_add_tail(&wb->blkcg_node, &blkcg->cgwb_list);
			cgwb_count++;
		}
	}
	spin_unlock_irqrestore(&cgwb_lock, flags);
	if (err) {
		wb_exit(wb);
		kfree(wb);
		/* another creator won the race: the caller finds the winner on its next lookup */
		return err == -EEXIST ? 0 : err;
	}
	return 0;
}

struct bdi_writeback *wb_get_create(struct backing_dev_info *bdi, struct mem_cgroup *memcg, gfp_t gfp)
{
	for (;;) {
		struct bdi_writeback *wb = wb_get_lookup(bdi, memcg);
		if (wb)
			return wb;
		if (cgwb_create(bdi, memcg, gfp))
			return NULL;
	}
}

/*
 * Give an inode its wb on first dirtying (Linux's __inode_attach_wb()): the wb of the memcg the
 * page is charged to, or of the current task's memcg without a page; the root wb if cgroup
 * writeback does not apply or the wb cannot be made (always correct, merely unattributed).
 */
void inode_attach_wb(struct inode *inode, struct page *page)
{
	struct backing_dev_info *bdi = inode_to_bdi(inode);
	struct bdi_writeback *wb = NULL;

	if (READ_ONCE(inode->i_wb))
		return;
	if (inode_cgwb_enabled(inode)) {
		struct mem_cgroup *memcg = page ? page_memcg(page) : mem_cgroup_from_task(current);
		wb = wb_get_create(bdi, memcg, GFP_ATOMIC);
	}
	if (!wb)
		wb = &bdi->wb;
	/* racing attachers: the first one wins, the others drop their reference */
	if (__atomic_compare_exchange_n(&inode->i_wb, &(struct bdi_writeback *){ NULL }, wb, false,
					__ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
		return;
	wb_put(wb);
}

void inode_detach_wb(struct inode *inode)
{
	struct bdi_writeback *wb = inode->i_wb;

	if (wb) {
		inode->i_wb = NULL;
		wb_put(wb);
	}
}

/* ---------------------------------------------------------------- going offline */

static void cleanup_offline_cgwbs_workfn(struct work_struct *work)
{
	struct bdi_writeback *wb;
	LIST_HEAD(processed);
	unsigned long flags;

	(void)work;
	spin_lock_irqsave(&cgwb_lock, flags);
	while (!list_empty(&offline_cgwbs)) {
		wb = list_first_entry(&offline_cgwbs, struct bdi_writeback, offline_node);
		list_move_tail(&wb->offline_node, &processed);
		/* dirty inodes switched now would escape the dead group's io limits: later */
		if (wb_has_dirty_io(wb) || !wb_tryget_if(wb, true))
			continue;
		spin_unlock_irqrestore(&cgwb_lock, flags);
		while (flusher_hooks()->cleanup_offline_cgwb(wb))
			cond_resched();
		wb_put(wb);
		spin_lock_irqsave(&cgwb_lock, flags);
	}
	list_splice_tail_init(&processed, &offline_cgwbs);
	spin_unlock_irqrestore(&cgwb_lock, flags);
}

/* Queue the cleanup of killed wbs (after an offline, and whenever a killed wb becomes clean). */
void cgwb_schedule_cleanup(void)
{
	queue_work(system_wq, &cleanup_offline_cgwbs_work);
}

/*
 * Kill every wb on list, whose entries are linked by the wb's member at node_offset. Each
 * is killed under the lock it was found under: let go in between, the other controller's
 * offline (a memcg's and an io cgroup's lists share wbs) could kill it and drop the last
 * reference, and the wb would be freed under us.
 */
static void cgwb_kill_listed(struct list_head *list, size_t node_offset)
{
	unsigned long flags;

	for (;;) {
		struct bdi_writeback *wb;
		bool was_live;

		spin_lock_irqsave(&cgwb_lock, flags);
		if (list_empty(list)) {
			spin_unlock_irqrestore(&cgwb_lock, flags);
			break;
		}
		wb = (struct bdi_writeback *)((char *)list->next - node_offset);
		was_live = cgwb_kill_locked(wb);
		spin_unlock_irqrestore(&cgwb_lock, flags);
		if (was_live)
			wb_put(wb); /* the index reference */
	}
}

/* A memcg's wbs die with it, and their clean inodes move to a live ancestor's wb. */
void wb_memcg_offline(struct mem_cgroup *memcg)
{
	cgwb_kill_listed(&memcg->cgwb_list, offsetof(struct bdi_writeback, memcg_node));
	cgwb_schedule_cleanup();
}

/*
 * An io cgroup's wbs die with it; their memcgs live on, and each inode moves to its memcg's
 * new wb at its next writeback round (wbc_attach_and_unlock_inode()), as in Linux.
 */
void wb_blkcg_offline(struct blkcg *blkcg)
{
	cgwb_kill_listed(&blkcg->cgwb_list, offsetof(struct bdi_writeback, blkcg_node));
}

/* The device goes away: every cgwb is killed (their inodes are written by their flushers). */
void cgwb_bdi_unregister(struct backing_dev_info *bdi)
{
	struct bdi_writeback *wb;

	bdi_for_each_wb(wb, bdi)
		if (!wb_is_root(wb))
			cgwb_kill(wb);
}

void cgwb_init(void)
{
	cgwb_release_wq = alloc_workqueue("cgwb_release", 0, 1);
	BUG_ON(!cgwb_release_wq);
	io_cgroup_register_offline_hook(wb_blkcg_offline);
}
