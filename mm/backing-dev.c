/*
 * Backing devices and writeback contexts: creation, registration, the flusher workqueue,
 * counters, wakeups and the inode <-> wb association.
 */
#include <cgwb/backing-dev.h>
#include <cgwb/fs.h>
#include <cgwb/blkdev.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/printk.h>
#include <cgwb/bug.h>
#include <cgwb/errno.h>
#include "internal.h"
#include "dirty-policy.h"

struct workqueue_struct *bdi_wq;
struct backing_dev_info noop_backing_dev_info;
static LIST_HEAD(bdi_list);
static DEFINE_SPINLOCK(bdi_lock);
static u64 bdi_id_cursor;
static unsigned long wb_id_cursor;

static const struct flusher_hooks *registered_flusher_hooks;

void register_flusher_hooks(const struct flusher_hooks *hooks)
{
	WARN_ON_ONCE(registered_flusher_hooks && registered_flusher_hooks != hooks);
	WRITE_ONCE(registered_flusher_hooks, hooks);
}

const struct flusher_hooks *flusher_hooks(void)
{
	const struct flusher_hooks *hooks = READ_ONCE(registered_flusher_hooks);

	BUG_ON(!hooks);
	return hooks;
}

/* A wb's work: the flusher's (registered), looked up when it runs, not when the wb is made. */
static void wb_flusher_workfn(struct work_struct *work)
{
	flusher_hooks()->wb_workfn(work);
}

int wb_init(struct bdi_writeback *wb, struct backing_dev_info *bdi, gfp_t gfp)
{
	memset(wb, 0, sizeof(*wb));
	if (percpu_counter_init_many(wb->stat, 0, gfp, NR_WB_STAT_ITEMS))
		return -ENOMEM;
	wb->bdi = bdi;
	wb->last_old_flush = jiffies;
	spin_lock_init(&wb->list_lock);
	wb->list_lock.name = "wb->list_lock";
	INIT_LIST_HEAD(&wb->b_dirty);
	INIT_LIST_HEAD(&wb->b_io);
	INIT_LIST_HEAD(&wb->b_more_io);
	INIT_LIST_HEAD(&wb->b_dirty_time);
	INIT_LIST_HEAD(&wb->b_attached);
	wb->bw_time_stamp = jiffies;
	wb_bw_window_reset(wb, jiffies, 0);
	wb->write_bandwidth = INIT_BW;
	wb->avg_write_bandwidth = INIT_BW;
	wb->dirty_ratelimit = INIT_BW;
	wb->balanced_dirty_ratelimit = INIT_BW;
	spin_lock_init(&wb->work_lock);
	wb->work_lock.name = "wb->work_lock";
	INIT_LIST_HEAD(&wb->work_list);
	INIT_DELAYED_WORK(&wb->dwork, wb_flusher_workfn);
	INIT_DELAYED_WORK(&wb->bw_dwork, wb_update_bandwidth_workfn);
	INIT_LIST_HEAD(&wb->bdi_node);
	INIT_LIST_HEAD(&wb->memcg_node);
	INIT_LIST_HEAD(&wb->blkcg_node);
	INIT_LIST_HEAD(&wb->offline_node);
	INIT_LIST_HEAD(&wb->policy_node);
	fprop_local_init(&wb->completions);
	fprop_local_init(&wb->memcg_completions);
	wb->id = wb_id_cursor++;
	return 0;
}

void wb_exit(struct bdi_writeback *wb)
{
	dirty_policy_wb_exit(wb);
	percpu_counter_destroy_many(wb->stat, NR_WB_STAT_ITEMS);
}

static int bdi_init(struct backing_dev_info *bdi)
{
	memset(bdi, 0, sizeof(*bdi));
	INIT_LIST_HEAD(&bdi->bdi_list);
	INIT_LIST_HEAD(&bdi->wb_list);
	xa_init(&bdi->cgwb_tree);
	init_rwsem(&bdi->wb_switch_rwsem);
	bdi->min_ratio = 0;
	bdi->max_ratio = 100 * BDI_RATIO_SCALE;
	bdi->max_prop_frac = FPROP_FRAC_BASE;
	bdi->refcnt = 1;
	bdi_laptop_mode_init(bdi);
	if (wb_init(&bdi->wb, bdi, GFP_KERNEL))
		return -ENOMEM;
	list_add(&bdi->wb.bdi_node, &bdi->wb_list);
	return 0;
}

struct backing_dev_info *bdi_alloc(void)
{
	struct backing_dev_info *bdi = kmalloc(sizeof(*bdi), GFP_KERNEL);

	if (!bdi)
		return NULL;
	if (bdi_init(bdi)) {
		kfree(bdi);
		return NULL;
	}
	bdi->capabilities = BDI_CAP_WRITEBACK | BDI_CAP_WRITEBACK_ACCT;
	return bdi;
}

int bdi_register(struct backing_dev_info *bdi, const char *fmt, ...)
{
	unsigned long flags;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(bdi->dev_name, sizeof(bdi->dev_name), fmt, ap);
	va_end(ap);
	spin_lock_irqsave(&bdi_lock, flags);
	bdi->id = ++bdi_id_cursor;
	list_add_tail(&bdi->bdi_list, &bdi_list);
	set_bit(WB_registered, &bdi->wb.state);
	spin_unlock_irqrestore(&bdi_lock, flags);
	return 0;
}

/* Stop accepting work and let the flushers drain: the device is going away. */
void bdi_unregister(struct backing_dev_info *bdi)
{
	struct bdi_writeback *wb;
	unsigned long flags;

	spin_lock_irqsave(&bdi_lock, flags);
	list_del_init(&bdi->bdi_list);
	spin_unlock_irqrestore(&bdi_lock, flags);
	bdi_laptop_mode_exit(bdi);
	cgwb_bdi_unregister(bdi);
	bdi_for_each_wb(wb, bdi)
		wb_shutdown(wb);
}

void bdi_put(struct backing_dev_info *bdi)
{
	/* cgwbs take references under cgwb_lock and drop them without it: atomically */
	if (__atomic_sub_fetch(&bdi->refcnt, 1, __ATOMIC_ACQ_REL) == 0 &&
	    bdi != &noop_backing_dev_info) {
		wb_exit(&bdi->wb);
		kfree(bdi);
	}
}

void for_each_bdi(void (*fn)(struct backing_dev_info *, void *), void *arg)
{
	struct backing_dev_info *bdi, *tmp;

	list_for_each_entry_safe(bdi, tmp, &bdi_list, bdi_list)
		fn(bdi, arg);
}

void wb_count_lists(struct bdi_writeback *wb, struct wb_lists *n)
{
	spin_lock(&wb->list_lock);
	n->dirty = list_count_nodes(&wb->b_dirty);
	n->io = list_count_nodes(&wb->b_io);
	n->more_io = list_count_nodes(&wb->b_more_io);
	n->dirty_time = list_count_nodes(&wb->b_dirty_time);
	spin_unlock(&wb->list_lock);
}

struct backing_dev_info *bdi_get_by_id(u64 id)
{
	struct backing_dev_info *bdi;

	list_for_each_entry(bdi, &bdi_list, bdi_list)
		if (bdi->id == id)
			return bdi;
	return NULL;
}

bool bdi_has_dirty_io(struct backing_dev_info *bdi)
{
	return READ_ONCE(bdi->tot_write_bandwidth) != 0;
}

void wb_wakeup(struct bdi_writeback *wb)
{
	unsigned long flags;

	spin_lock_irqsave(&wb->work_lock, flags);
	if (test_bit(WB_registered, &wb->state))
		mod_delayed_work(bdi_wq, &wb->dwork, 0);
	spin_unlock_irqrestore(&wb->work_lock, flags);
}

void wb_wakeup_delayed(struct bdi_writeback *wb)
{
	unsigned long timeout = msecs_to_jiffies((unsigned long)dirty_writeback_interval * 10);
	unsigned long flags;

	spin_lock_irqsave(&wb->work_lock, flags);
	/* queue_delayed_work keeps an earlier arming: a late dirtier never postpones it */
	if (test_bit(WB_registered, &wb->state))
		queue_delayed_work(bdi_wq, &wb->dwork, timeout);
	spin_unlock_irqrestore(&wb->work_lock, flags);
}

struct bdi_writeback *inode_to_wb(const struct inode *inode)
{
	struct bdi_writeback *wb = rcu_dereference(inode->i_wb);

	return wb ? wb : &inode_to_bdi((struct inode *)inode)->wb;
}

void backing_dev_init(void)
{
	bdi_wq = alloc_workqueue("writeback", WQ_UNBOUND | WQ_MEM_RECLAIM, 256);
	BUG_ON(!bdi_wq);
	BUG_ON(bdi_init(&noop_backing_dev_info));
	strlcpy(noop_backing_dev_info.dev_name, "noop", sizeof(noop_backing_dev_info.dev_name));
	noop_backing_dev_info.capabilities = 0;
	cgwb_init();
}
