/*
 * The flusher (the wb_workfn() half of Linux's fs/fs-writeback.c): per-wb work items and the
 * delayed work that runs them, periodic (kupdate) and background writeback, and the
 * bdi- and superblock-wide requests (sync, vmscan) split over a device's wbs.
 */
#include <cgwb/fs.h>
#include <cgwb/backing-dev.h>
#include <cgwb/bio.h>
#include <cgwb/writeback.h>
#include <cgwb/pagemap.h>
#include <cgwb/vmstat.h>
#include <cgwb/slab.h>
#include <cgwb/sched.h>
#include <cgwb/printk.h>
#include <cgwb/bug.h>
#include <cgwb/trace/writeback.h>
#include "internal.h"

#define MIN_WRITEBACK_PAGES (4096UL >> (PAGE_SHIFT - 10))
#define DIRTY_SCOPE 8
#define SYNC_SWITCH_PASSES 3 /* sync passes that may leave a switching inode to the next */

/*
 * What the waiters for a wb_completion sleep on: one queue, never freed, as Linux's per-bdi
 * wb_waitq. The completion is the waiter's, on its stack, and once the count is zero the
 * waiter may return: the last finish_writeback_work() must wake a queue that outlives it.
 */
static DECLARE_WAIT_QUEUE_HEAD(wb_completion_wq);

static void finish_writeback_work(struct wb_writeback_work *work)
{
	struct wb_completion *done = work->done;

	if (work->auto_free)
		kfree(work);
	if (done) {
		/* done is the waiter's: not to be touched once the count is down */
		wait_queue_head_t *waitq = done->waitq;

		if (__atomic_sub_fetch(&done->cnt, 1, __ATOMIC_ACQ_REL) == 0)
			wake_up_all(waitq);
	}
}

void wb_queue_work(struct bdi_writeback *wb, struct wb_writeback_work *work)
{
	unsigned long flags;

	trace_writeback_queue(wb, work);
	if (work->done)
		__atomic_add_fetch(&work->done->cnt, 1, __ATOMIC_RELAXED);
	spin_lock_irqsave(&wb->work_lock, flags);
	if (test_bit(WB_registered, &wb->state)) {
		list_add_tail(&work->list, &wb->work_list);
		mod_delayed_work(bdi_wq, &wb->dwork, 0);
		spin_unlock_irqrestore(&wb->work_lock, flags);
	} else {
		/* the device is going away: complete the work without running it */
		spin_unlock_irqrestore(&wb->work_lock, flags);
		finish_writeback_work(work);
	}
}

void wb_wait_for_completion(struct wb_completion *done)
{
	__atomic_sub_fetch(&done->cnt, 1, __ATOMIC_ACQ_REL);
	wait_event(*done->waitq, !__atomic_load_n(&done->cnt, __ATOMIC_ACQUIRE));
}

static struct wb_writeback_work *get_next_work_item(struct bdi_writeback *wb)
{
	struct wb_writeback_work *work = NULL;
	unsigned long flags;

	spin_lock_irqsave(&wb->work_lock, flags);
	if (!list_empty(&wb->work_list)) {
		work = list_first_entry(&wb->work_list, struct wb_writeback_work, list);
		list_del_init(&work->list);
	}
	spin_unlock_irqrestore(&wb->work_lock, flags);
	return work;
}

/*
 * How much of an inode to write before moving to the next: everything for integrity
 * writeback; otherwise about half a second of the device's bandwidth, in whole 4 MiB
 * units, at least 4 MiB.
 */
static long writeback_chunk_size(struct bdi_writeback *wb, struct wb_writeback_work *work)
{
	long pages;

	if (work->sync_mode == WB_SYNC_ALL || work->tagged_writepages)
		return LONG_MAX;
	unsigned long bg, thresh;
	global_dirty_limits(&bg, &thresh);
	pages = (long)min(wb->avg_write_bandwidth / 2, thresh / DIRTY_SCOPE);
	pages = min(pages, work->nr_pages);
	return (long)round_down((unsigned long)pages + MIN_WRITEBACK_PAGES, MIN_WRITEBACK_PAGES);
}

/*
 * Opt-in fast foreign switch: an inode whose switch is pending is left to the wb it goes
 * to, or another pass would write it again under the group it is leaving. A sync counts
 * it (work->nr_switching) and runs again once the switches are done (sync_inodes_sb).
 * i_lock held.
 */
static bool wb_leave_switching_inode(struct inode *inode, struct wb_writeback_work *work)
{
	if (!READ_ONCE(vm_dirty_foreign_fast_switch) || !(inode->i_state & I_WB_SWITCH))
		return false;
	if (work->sync_mode == WB_SYNC_ALL) {
		if (!work->nr_switching)
			return false;
		__atomic_add_fetch(work->nr_switching, 1, __ATOMIC_RELAXED);
	}
	return true;
}

/*
 * Write the inodes of sb at the tail of b_io. Returns pages written plus one for each
 * inode that became clean. list_lock held on entry and return.
 */
static long writeback_sb_inodes(struct super_block *sb, struct bdi_writeback *wb,
				struct wb_writeback_work *work, unsigned long dirtied_before)
{
	struct writeback_control wbc = {
		.sync_mode = work->sync_mode,
		.tagged_writepages = work->tagged_writepages,
		.for_kupdate = work->for_kupdate,
		.for_background = work->for_background,
		.for_sync = work->for_sync,
		.range_cyclic = work->range_cyclic,
		.range_start = 0,
		.range_end = LLONG_MAX,
		.frn_pass_repeats = work->sync_mode == WB_SYNC_ALL && work->nr_switching,
	};
	unsigned long start_time = jiffies;
	long total_wrote = 0;

	while (!list_empty(&wb->b_io)) {
		struct inode *inode = wb_inode(wb->b_io.prev);
		struct bdi_writeback *tmp_wb;
		long write_chunk, wrote;

		if (inode->i_sb != sb) {
			if (work->sb) {
				/* only this superblock's inodes: the others wait for their own pass */
				redirty_tail(inode, wb);
				continue;
			}
			break; /* let the caller switch superblock */
		}
		spin_lock(&inode->i_lock);
		if ((inode->i_state & (I_NEW | I_FREEING | I_WILL_FREE)) ||
		    wb_leave_switching_inode(inode, work)) {
			redirty_tail_locked(inode, wb);
			spin_unlock(&inode->i_lock);
			continue;
		}
		if ((inode->i_state & I_SYNC) && wbc.sync_mode != WB_SYNC_ALL) {
			/* someone else writes it: come back to it in the next turn */
			spin_unlock(&inode->i_lock);
			requeue_io(inode, wb);
			trace_writeback_sb_inodes_requeue(inode);
			continue;
		}
		spin_unlock(&wb->list_lock);
		if (inode->i_state & I_SYNC) {
			inode_sleep_on_writeback(inode);
			spin_lock(&wb->list_lock);
			continue;
		}
		inode->i_state |= I_SYNC;
		wbc_attach_and_unlock_inode(&wbc, inode);

		write_chunk = writeback_chunk_size(wb, work);
		wbc.nr_to_write = write_chunk;
		wbc.pages_skipped = 0;
		__writeback_single_inode(inode, &wbc);
		wbc_detach_inode(&wbc);
		/* a sync pass ended a clear round: the switch is queued, the next pass writes it */
		if (wbc.frn_clear && wbc.frn_pass_repeats)
			__atomic_add_fetch(work->nr_switching, 1, __ATOMIC_RELAXED);

		work->nr_pages -= write_chunk - wbc.nr_to_write;
		wrote = write_chunk - wbc.nr_to_write - wbc.pages_skipped;
		total_wrote += wrote > 0 ? wrote : 0;
		cond_resched();

		/* the inode may have been switched to another wb meanwhile */
		tmp_wb = inode_to_wb_and_lock_list(inode);
		spin_lock(&inode->i_lock);
		if (!(inode->i_state & I_DIRTY_ALL))
			total_wrote++;
		requeue_inode(inode, tmp_wb, &wbc, dirtied_before);
		inode_sync_complete_locked(inode);
		spin_unlock(&inode->i_lock);
		if (tmp_wb != wb) {
			spin_unlock(&tmp_wb->list_lock);
			spin_lock(&wb->list_lock);
		}
		if (total_wrote) {
			if (time_after(jiffies, start_time + HZ / 10))
				break;
			if (work->nr_pages <= 0)
				break;
		}
	}
	return total_wrote;
}

/* All superblocks at the tail of b_io, one after the other. */
static long __writeback_inodes_wb(struct bdi_writeback *wb, struct wb_writeback_work *work,
				  unsigned long dirtied_before)
{
	unsigned long start_time = jiffies;
	long wrote = 0;

	while (!list_empty(&wb->b_io)) {
		struct inode *inode = wb_inode(wb->b_io.prev);
		struct super_block *sb = inode->i_sb;

		if (!down_read_trylock(&sb->s_umount)) {
			/* being mounted or unmounted: try again later */
			redirty_tail(inode, wb);
			continue;
		}
		wrote += writeback_sb_inodes(sb, wb, work, dirtied_before);
		up_read(&sb->s_umount);
		if (wrote) {
			if (time_after(jiffies, start_time + HZ / 10))
				break;
			if (work->nr_pages <= 0)
				break;
		}
	}
	return wrote;
}

/*
 * One work item: returns the pages written. Plugged across inodes, as Linux: files
 * written one after another often lie side by side (small files packed by the allocator),
 * and their bios merge into one request only if they wait for each other.
 */
static long wb_writeback(struct bdi_writeback *wb, struct wb_writeback_work *work)
{
	long nr_pages = work->nr_pages;
	unsigned long dirtied_before = jiffies; /* livelock avoidance: not chase later dirtiers */
	struct blk_plug plug;

	blk_start_plug(&plug);
	spin_lock(&wb->list_lock);
	for (;;) {
		long progress;

		if (work->nr_pages <= 0)
			break;
		/* open-ended work yields to explicit requests */
		if ((work->for_background || work->for_kupdate) && !list_empty(&wb->work_list))
			break;
		if (work->for_background && !wb_over_bg_thresh(wb))
			break;
		if (list_empty(&wb->b_io)) {
			if (work->for_kupdate)
				dirtied_before =
					jiffies -
					msecs_to_jiffies((unsigned long)dirty_expire_interval * 10);
			else if (work->for_background)
				dirtied_before = jiffies;
			queue_io(wb, work, dirtied_before);
		}
		trace_writeback_start(wb, work);
		if (work->sb)
			progress = writeback_sb_inodes(work->sb, wb, work, dirtied_before);
		else
			progress = __writeback_inodes_wb(wb, work, dirtied_before);
		trace_writeback_written(wb, work);

		if (progress)
			continue;
		if (list_empty(&wb->b_more_io))
			break;
		/* nothing done, but an inode waits for more: sleep until its writer is done */
		trace_writeback_wait(wb, work);
		struct inode *inode = wb_inode(wb->b_more_io.prev);
		spin_lock(&inode->i_lock);
		spin_unlock(&wb->list_lock);
		inode_sleep_on_writeback(inode);
		spin_lock(&wb->list_lock);
	}
	spin_unlock(&wb->list_lock);
	blk_finish_plug(&plug);
	return nr_pages - work->nr_pages;
}

static long get_nr_dirty_pages(void)
{
	/* +1 so a pass also runs when only inode metadata is dirty (those cost no budget) */
	return (long)global_node_page_state(NR_FILE_DIRTY) + 1;
}

static long wb_check_start_all(struct bdi_writeback *wb)
{
	long nr_pages;

	if (!test_bit(WB_start_all, &wb->state))
		return 0;
	nr_pages = get_nr_dirty_pages();
	if (nr_pages) {
		struct wb_writeback_work work = {
			.nr_pages = wb_split_bdi_pages(wb, nr_pages),
			.sync_mode = WB_SYNC_NONE,
			.range_cyclic = 1,
			.reason = WB_REASON_SYNC,
		};
		nr_pages = wb_writeback(wb, &work);
	}
	clear_bit(WB_start_all, &wb->state);
	return nr_pages;
}

/* Periodic writeback of expired inodes (kupdate). */
static long wb_check_old_data_flush(struct bdi_writeback *wb)
{
	unsigned long expired;

	if (!dirty_writeback_interval)
		return 0;
	expired = wb->last_old_flush + msecs_to_jiffies((unsigned long)dirty_writeback_interval * 10);
	if (time_before(jiffies, expired))
		return 0;
	wb->last_old_flush = jiffies;
	/* lazy timestamps alone are not dirty IO, but their expiry is this pass's to write */
	if (!wb_has_dirty_io(wb) && list_empty(&wb->b_dirty_time) &&
	    !global_node_page_state(NR_FILE_DIRTY))
		return 0;
	struct wb_writeback_work work = {
		.nr_pages = get_nr_dirty_pages(),
		.sync_mode = WB_SYNC_NONE,
		.for_kupdate = 1,
		.range_cyclic = 1,
		.reason = WB_REASON_PERIODIC,
	};
	return wb_writeback(wb, &work);
}

static long wb_check_background_flush(struct bdi_writeback *wb)
{
	if (!wb_over_bg_thresh(wb))
		return 0;
	struct wb_writeback_work work = {
		.nr_pages = LONG_MAX,
		.sync_mode = WB_SYNC_NONE,
		.for_background = 1,
		.range_cyclic = 1,
		.reason = WB_REASON_BACKGROUND,
	};
	return wb_writeback(wb, &work);
}

static long wb_do_writeback(struct bdi_writeback *wb)
{
	struct wb_writeback_work *work;
	long wrote = 0;

	set_bit(WB_writeback_running, &wb->state);
	while ((work = get_next_work_item(wb)) != NULL) {
		trace_writeback_exec(wb, work);
		wrote += wb_writeback(wb, work);
		finish_writeback_work(work);
	}
	wrote += wb_check_start_all(wb);
	wrote += wb_check_old_data_flush(wb);
	wrote += wb_check_background_flush(wb);
	clear_bit(WB_writeback_running, &wb->state);
	return wrote;
}

/* The per-wb flusher work. */
void wb_workfn(struct work_struct *work)
{
	struct bdi_writeback *wb = container_of(to_delayed_work(work), struct bdi_writeback, dwork);

	long pages_written = 0;

	do {
		pages_written += wb_do_writeback(wb);
	} while (!list_empty(&wb->work_list));
	trace_writeback_pages_written(pages_written);

	if (!list_empty(&wb->work_list))
		wb_wakeup(wb);
	else if (wb_has_dirty_io(wb) && dirty_writeback_interval)
		wb_wakeup_delayed(wb);
}

/*
 * A bdi-wide page budget split by a wb's share of the device's write bandwidth:
 * erring towards writing more.
 */
long wb_split_bdi_pages(struct bdi_writeback *wb, long nr_pages)
{
	unsigned long this_bw = wb->avg_write_bandwidth;
	unsigned long tot_bw = READ_ONCE(wb->bdi->tot_write_bandwidth);

	if (nr_pages == LONG_MAX || !tot_bw || this_bw >= tot_bw)
		return nr_pages;
	return (long)DIV_ROUND_UP((u64)nr_pages * this_bw, tot_bw);
}

/* Ask one wb to write everything: at most one such request pending. */
static void wb_start_writeback(struct bdi_writeback *wb, enum wb_reason reason)
{
	if (!wb_has_dirty_io(wb))
		return;
	/* the plain test first spares the shared line an atomic write, as Linux's */
	if (test_bit(WB_start_all, &wb->state) || test_and_set_bit(WB_start_all, &wb->state))
		return;
	(void)reason;
	wb_wakeup(wb);
}

void wakeup_flusher_threads_bdi(struct backing_dev_info *bdi, enum wb_reason reason)
{
	struct bdi_writeback *wb;

	bdi_for_each_wb(wb, bdi)
		wb_start_writeback(wb, reason);
}

/*
 * Lazy timestamps (I_DIRTY_TIME) do not make a wb's IO dirty, so nothing else wakes a wb
 * that holds only them: every dirtytime_expire_interval, the wbs with such inodes are
 * woken and their kupdate pass writes the expired ones (Linux's
 * wakeup_dirtytime_writeback()). The sysctl reschedules it at once.
 */
static void wakeup_dirtytime_writeback(struct work_struct *work);
static struct delayed_work dirtytime_work;

static void dirtytime_wake_bdi(struct backing_dev_info *bdi, void *arg)
{
	struct bdi_writeback *wb;

	(void)arg;
	bdi_for_each_wb(wb, bdi)
		if (!list_empty(&wb->b_dirty_time))
			wb_wakeup(wb);
}

static void wakeup_dirtytime_writeback(struct work_struct *work)
{
	unsigned int secs = READ_ONCE(dirtytime_expire_interval);

	(void)work;
	for_each_bdi(dirtytime_wake_bdi, NULL);
	if (secs)
		schedule_delayed_work(&dirtytime_work, (unsigned long)secs * HZ);
}

void dirtytime_writeback_init(void)
{
	INIT_DELAYED_WORK(&dirtytime_work, wakeup_dirtytime_writeback);
	schedule_delayed_work(&dirtytime_work, (unsigned long)dirtytime_expire_interval * HZ);
}

void dirtytime_interval_changed(void)
{
	mod_delayed_work(system_wq, &dirtytime_work, 0);
}

static void wakeup_one_bdi(struct backing_dev_info *bdi, void *reason)
{
	wakeup_flusher_threads_bdi(bdi, *(enum wb_reason *)reason);
}

void wakeup_flusher_threads(enum wb_reason reason)
{
	for_each_bdi(wakeup_one_bdi, &reason);
}

/*
 * Queue a copy of base to every wb of the bdi with dirty IO (for integrity work, also with
 * dirty-time inodes), with the budget split by bandwidth.
 */
static void bdi_split_work_to_wbs(struct backing_dev_info *bdi, struct wb_writeback_work *base,
				  bool skip_if_busy)
{
	struct bdi_writeback *wb;

	bdi_for_each_wb(wb, bdi) {
		if (!wb_has_dirty_io(wb) &&
		    (base->sync_mode == WB_SYNC_NONE || list_empty(&wb->b_dirty_time)))
			continue;
		if (skip_if_busy && writeback_in_progress(wb))
			continue;
		struct wb_writeback_work *work = kmalloc(sizeof(*work), GFP_NOWAIT | __GFP_NOWARN);
		if (work) {
			*work = *base;
			work->nr_pages = wb_split_bdi_pages(wb, base->nr_pages);
			work->auto_free = 1;
			INIT_LIST_HEAD(&work->list);
			wb_queue_work(wb, work);
			continue;
		}
		/* no memory for a copy: use the on-stack base and wait for it here */
		DEFINE_WB_COMPLETION(fallback, &wb_completion_wq);
		struct wb_completion *orig = base->done;
		base->nr_pages = wb_split_bdi_pages(wb, base->nr_pages);
		base->auto_free = 0;
		base->done = &fallback;
		INIT_LIST_HEAD(&base->list);
		wb_queue_work(wb, base);
		wb_wait_for_completion(&fallback);
		base->done = orig;
	}
}

void writeback_inodes_sb(struct super_block *sb, enum wb_reason reason)
{
	DEFINE_WB_COMPLETION(done, &wb_completion_wq);
	struct wb_writeback_work work = {
		.sb = sb,
		.sync_mode = WB_SYNC_NONE,
		.tagged_writepages = 1,
		.done = &done,
		.nr_pages = get_nr_dirty_pages(),
		.reason = reason,
	};

	if (!sb->s_bdi || !bdi_cap_writeback(sb->s_bdi))
		return;
	bdi_split_work_to_wbs(sb->s_bdi, &work, false);
	wb_wait_for_completion(&done);
}

/*
 * Wait for every inode of sb that had pages under writeback when sync started: take the
 * current list, and wait on each inode once (an inode whose writeback ends leaves the list
 * in end_page_writeback; one that starts again rejoins it, for the next sync).
 */
static void wait_sb_inodes(struct super_block *sb)
{
	LIST_HEAD(sync_list);
	unsigned long flags;

	mutex_lock(&sb->s_sync_lock);
	spin_lock_irqsave(&sb->s_inode_wblist_lock, flags);
	list_splice_init(&sb->s_inodes_wb, &sync_list);
	while (!list_empty(&sync_list)) {
		struct inode *inode = list_first_entry(&sync_list, struct inode, i_wb_list);
		struct inode *pinned;
		bool busy;

		if (!mapping_tagged(inode->i_mapping, PAGECACHE_TAG_WRITEBACK)) {
			list_move_tail(&inode->i_wb_list, &sb->s_inodes_wb);
			continue;
		}
		/*
		 * Pinned under the list lock, so it cannot be freed meanwhile; but i_lock ranks
		 * before this lock (i_lock, then i_pages, then this list: the switch and the start
		 * of writeback), so only tried: when taken, let its holder go on and try again.
		 */
		pinned = igrab_trylock(inode, &busy);
		if (busy) {
			spin_unlock_irqrestore(&sb->s_inode_wblist_lock, flags);
			cpu_relax();
			spin_lock_irqsave(&sb->s_inode_wblist_lock, flags);
			continue;
		}
		/* back on the sb list: it stays there until its writeback ends */
		list_move_tail(&inode->i_wb_list, &sb->s_inodes_wb);
		spin_unlock_irqrestore(&sb->s_inode_wblist_lock, flags);
		inode = pinned;
		if (inode) {
			filemap_fdatawait_range(inode->i_mapping, 0, LLONG_MAX);
			iput(inode);
		} /* else being evicted: eviction waits for its pages itself */
		spin_lock_irqsave(&sb->s_inode_wblist_lock, flags);
	}
	spin_unlock_irqrestore(&sb->s_inode_wblist_lock, flags);
	mutex_unlock(&sb->s_sync_lock);
}

/* Integrity writeback of every dirty inode of sb, waited for (sync(2)'s core). */
void sync_inodes_sb(struct super_block *sb)
{
	struct backing_dev_info *bdi = sb->s_bdi;
	DEFINE_WB_COMPLETION(done, &wb_completion_wq);
	struct wb_writeback_work work = {
		.sb = sb,
		.sync_mode = WB_SYNC_ALL,
		.nr_pages = LONG_MAX,
		.range_cyclic = 0,
		.done = &done,
		.reason = WB_REASON_SYNC,
		.for_sync = 1,
	};

	if (!bdi || !bdi_cap_writeback(bdi))
		return;
	for (int pass = 1;; pass++) {
		int nr_switching = 0;

		/* the last pass writes switching inodes where they are: a sync always ends */
		work.nr_switching = pass < SYNC_SWITCH_PASSES ? &nr_switching : NULL;
		done.cnt = 1;
		/* no inode may change wb while this runs (see inode_switch_wbs()) */
		down_write(&bdi->wb_switch_rwsem);
		bdi_split_work_to_wbs(bdi, &work, false);
		wb_wait_for_completion(&done);
		up_write(&bdi->wb_switch_rwsem);
		if (!READ_ONCE(nr_switching))
			break;
		/* inodes left to the wbs they were switching to are there now: sync those too */
		wb_wait_for_switches();
	}
	wait_sb_inodes(sb);
}
