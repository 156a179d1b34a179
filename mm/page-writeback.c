/*
 * Dirty pages: their accounting at each state transition, the dirty limits, the write
 * bandwidth estimate, the generic writepages walk, and dirty throttling
 * (shared/spec/writeback.md 3, 4, 5).
 *
 * Throttling here is the global domain's control law (4.3, 5.2, 5.3.1): writers run free
 * below the freerun ceiling, are paused in proportion to a cubic position ratio between it
 * and the limit, and stop at the limit. The per-wb shares (fprop), the wb control line,
 * the dirty ratelimit estimator and the memcg domain belong to the wb_domain work and slot
 * into struct dirty_throttle_control and balance_dirty_pages() below.
 */
#include <cgwb/pagemap.h>
#include <cgwb/fs.h>
#include <cgwb/backing-dev.h>
#include <cgwb/writeback.h>
#include <cgwb/memcontrol.h>
#include <cgwb/vmstat.h>
#include <cgwb/sched.h>
#include <cgwb/printk.h>
#include <cgwb/bug.h>
#include "internal.h"

int dirty_background_ratio = 10;
unsigned long dirty_background_bytes;
int vm_dirty_ratio = 20;
unsigned long vm_dirty_bytes;
unsigned int dirty_writeback_interval = 5 * 100;   /* centiseconds */
unsigned int dirty_expire_interval = 30 * 100;
unsigned int dirtytime_expire_interval = 12 * 60 * 60;
unsigned long ratelimit_pages = 32;

#define BANDWIDTH_INTERVAL max(HZ / 5, 1)
#define WB_BANDWIDTH_IDLE_JIF HZ
#define MAX_PAUSE max(HZ / 5, 1)
#define DIRTY_POLL_THRESH (128 >> (PAGE_SHIFT - 10))
#define RATELIMIT_CALC_SHIFT 10

/* One domain's view during one throttling decision (5.1). */
struct dirty_throttle_control {
	struct bdi_writeback *wb;
	unsigned long avail;      /* dirtyable memory */
	unsigned long dirty;      /* dirty (+ writeback when throttling) */
	unsigned long thresh;
	unsigned long bg_thresh;
	unsigned long wb_dirty;
	unsigned long pos_ratio;
};

/* ---------------------------------------------------------------- limits (4.2, 4.3) */

unsigned long global_dirtyable_memory(void)
{
	unsigned long free = nr_free_pages();

	free -= min(free, totalreserve_pages);
	return free + global_node_page_state(NR_INACTIVE_FILE) +
	       global_node_page_state(NR_ACTIVE_FILE) + 1;
}

static void domain_dirty_limits(struct dirty_throttle_control *dtc)
{
	unsigned long ratio = (unsigned long)vm_dirty_ratio * PAGE_SIZE / 100;
	unsigned long bg_ratio = (unsigned long)dirty_background_ratio * PAGE_SIZE / 100;
	unsigned long thresh, bg_thresh;

	if (vm_dirty_bytes)
		thresh = DIV_ROUND_UP(vm_dirty_bytes, PAGE_SIZE);
	else
		thresh = ratio * dtc->avail / PAGE_SIZE;
	if (dirty_background_bytes)
		bg_thresh = DIV_ROUND_UP(dirty_background_bytes, PAGE_SIZE);
	else
		bg_thresh = bg_ratio * dtc->avail / PAGE_SIZE;
	thresh = min(thresh, (unsigned long)UINT_MAX);
	if (bg_thresh >= thresh)
		bg_thresh = thresh / 2;
	dtc->thresh = thresh;
	dtc->bg_thresh = bg_thresh;
}

void global_dirty_limits(unsigned long *pbackground, unsigned long *pdirty)
{
	struct dirty_throttle_control dtc = { .avail = global_dirtyable_memory() };

	domain_dirty_limits(&dtc);
	*pbackground = dtc.bg_thresh;
	*pdirty = dtc.thresh;
}

void writeback_set_ratelimit(void)
{
	unsigned long bg, thresh;

	global_dirty_limits(&bg, &thresh);
	ratelimit_pages = max(thresh / 32, 16UL); /* one CPU */
}

static unsigned long dirty_freerun_ceiling(unsigned long thresh, unsigned long bg_thresh)
{
	return (thresh + bg_thresh) / 2;
}

/* Pages a task may dirty before looking again: about the square root of the room left. */
static unsigned long dirty_poll_interval(unsigned long dirty, unsigned long thresh)
{
	if (thresh > dirty)
		return 1UL << (ilog2(thresh - dirty) >> 1);
	return 1;
}

/*
 * Background writeback goes on while the domain's dirty pages exceed its background level,
 * or the wb's own dirty pages exceed its share of it (2.12).
 */
bool wb_over_bg_thresh(struct bdi_writeback *wb)
{
	struct dirty_throttle_control gdtc = {
		.wb = wb,
		.avail = global_dirtyable_memory(),
		.dirty = global_node_page_state(NR_FILE_DIRTY), /* not writeback: is more IO needed? */
	};

	domain_dirty_limits(&gdtc);
	if (gdtc.dirty > gdtc.bg_thresh)
		return true;
	return (unsigned long)wb_stat(wb, WB_RECLAIMABLE) >
	       wb_calc_thresh(wb, gdtc.bg_thresh, gdtc.dirty);
}

/* ---------------------------------------------------------------- bandwidth (3.2) */

static void wb_update_write_bandwidth(struct bdi_writeback *wb, unsigned long elapsed,
				      unsigned long written)
{
	const unsigned long period = roundup_pow_of_two(3 * HZ);
	unsigned long avg = wb->avg_write_bandwidth;
	unsigned long old = wb->write_bandwidth;
	u64 bw;

	/* written may shrink when pages are redirtied */
	unsigned long delta = written - min(written, wb->written_stamp);

	bw = (u64)delta * HZ;
	if (elapsed > period) {
		bw /= elapsed;
		avg = (unsigned long)bw;
		goto out;
	}
	bw += (u64)old * (period - elapsed);
	bw >>= ilog2(period);

	/* second-level smoothing: only move toward old when it lies between avg and bw */
	if (avg > old && old >= (unsigned long)bw)
		avg -= (avg - old) >> 3;
	if (avg < old && old <= (unsigned long)bw)
		avg += (old - avg) >> 3;
out:
	avg = max(avg, 1UL);
	if (wb_has_dirty_io(wb)) {
		long delta_avg = (long)avg - (long)wb->avg_write_bandwidth;
		WARN_ON_ONCE((long)wb->bdi->tot_write_bandwidth + delta_avg < 0);
		wb->bdi->tot_write_bandwidth += delta_avg;
	}
	wb->write_bandwidth = (unsigned long)bw;
	wb->avg_write_bandwidth = avg;
}

/* Update the estimate and move the checkpoints. wb->list_lock held. */
static void __wb_update_bandwidth(struct bdi_writeback *wb)
{
	unsigned long now = jiffies;
	unsigned long elapsed = now - wb->bw_time_stamp;
	unsigned long written = (unsigned long)wb_stat(wb, WB_WRITTEN);

	if (!elapsed)
		elapsed = 1;
	wb_update_write_bandwidth(wb, elapsed, written);
	wb->dirtied_stamp = (unsigned long)wb_stat(wb, WB_DIRTIED);
	wb->written_stamp = written;
	wb->bw_time_stamp = now;
}

void wb_update_bandwidth(struct bdi_writeback *wb)
{
	if (!time_after(jiffies, wb->bw_time_stamp + BANDWIDTH_INTERVAL))
		return;
	spin_lock(&wb->list_lock);
	__wb_update_bandwidth(wb);
	spin_unlock(&wb->list_lock);
}

/* Idle for more than a second with nothing in flight: do not average the idle time in. */
void wb_bandwidth_estimate_start(struct bdi_writeback *wb)
{
	unsigned long now = jiffies;

	if (time_after(now, wb->bw_time_stamp + WB_BANDWIDTH_IDLE_JIF) && !wb->writeback_inodes) {
		spin_lock(&wb->list_lock);
		wb->dirtied_stamp = (unsigned long)wb_stat(wb, WB_DIRTIED);
		wb->written_stamp = (unsigned long)wb_stat(wb, WB_WRITTEN);
		wb->bw_time_stamp = now;
		spin_unlock(&wb->list_lock);
	}
}

/* bw_dwork: refresh after the last inode of the wb finished writeback. */
void wb_update_bandwidth_workfn(struct work_struct *work)
{
	struct bdi_writeback *wb = container_of(to_delayed_work(work), struct bdi_writeback, bw_dwork);

	spin_lock(&wb->list_lock);
	__wb_update_bandwidth(wb);
	spin_unlock(&wb->list_lock);
}

void __wb_writeout_add(struct bdi_writeback *wb, long n)
{
	wb_stat_mod(wb, WB_WRITTEN, n);
	wb_domain_writeout_add(&global_wb_domain, &wb->completions, wb->bdi->max_prop_frac, n);
}

/* ---------------------------------------------------------------- page state (3.1) */

static bool mapping_can_writeback(struct address_space *mapping)
{
	return !(mapping->flags & (1UL << AS_NO_ACCOUNT)) &&
	       bdi_cap_writeback(inode_to_bdi(mapping->host));
}

/* A page became dirty: count it everywhere. i_pages lock held. */
static void account_page_dirtied(struct page *page, struct address_space *mapping)
{
	struct inode *inode = mapping->host;

	if (!mapping_can_writeback(mapping))
		return;
	inode_attach_wb(inode, page);
	struct bdi_writeback *wb = inode_to_wb(inode);
	mod_page_state(page, NR_FILE_DIRTY, 1);
	mod_node_page_state(NR_DIRTIED, 1);
	wb_stat_mod(wb, WB_RECLAIMABLE, 1);
	wb_stat_mod(wb, WB_DIRTIED, 1);
	mem_cgroup_track_foreign_dirty(page, wb);
	current->nr_dirtied++;
}

/* A dirty page stops being dirty without being written (truncate). */
static void account_page_cleaned(struct page *page, struct address_space *mapping)
{
	if (!mapping_can_writeback(mapping))
		return;
	mod_page_state(page, NR_FILE_DIRTY, -1);
	wb_stat_mod(inode_to_wb(mapping->host), WB_RECLAIMABLE, -1);
}

bool __set_page_dirty_nobuffers(struct address_space *mapping, struct page *page)
{
	unsigned long flags;

	if (TestSetPageDirty(page))
		return false;
	xa_lock_irqsave(&mapping->i_pages, flags);
	if (page->mapping) { /* not truncated meanwhile */
		WARN_ON_ONCE(page->mapping != mapping);
		account_page_dirtied(page, mapping);
		xa_set_mark(&mapping->i_pages, page->index, PAGECACHE_TAG_DIRTY);
	}
	xa_unlock_irqrestore(&mapping->i_pages, flags);
	if (mapping->host)
		__mark_inode_dirty(mapping->host, I_DIRTY_PAGES);
	return true;
}

bool set_page_dirty(struct page *page)
{
	struct address_space *mapping = page->mapping;

	if (!mapping)
		return !TestSetPageDirty(page);
	if (mapping->a_ops && mapping->a_ops->set_page_dirty)
		return mapping->a_ops->set_page_dirty(mapping, page);
	return __set_page_dirty_nobuffers(mapping, page);
}

void redirty_page_for_writepage(struct writeback_control *wbc, struct page *page)
{
	struct address_space *mapping = page->mapping;

	wbc->pages_skipped++;
	if (set_page_dirty(page) && mapping && mapping_can_writeback(mapping)) {
		/* not a new dirtying: undo the history counts set_page_dirty added */
		current->nr_dirtied--;
		mod_node_page_state(NR_DIRTIED, -1);
		wb_stat_mod(inode_to_wb(mapping->host), WB_DIRTIED, -1);
	}
}

bool clear_page_dirty_for_io(struct page *page)
{
	struct address_space *mapping = page->mapping;

	BUG_ON(!PageLocked(page));
	if (!mapping || !mapping_can_writeback(mapping))
		return TestClearPageDirty(page);
	if (!TestClearPageDirty(page))
		return false;
	/* the DIRTY tag stays until set_page_writeback, so sync still finds the page */
	unsigned long flags;
	xa_lock_irqsave(&mapping->i_pages, flags);
	mod_page_state(page, NR_FILE_DIRTY, -1);
	wb_stat_mod(inode_to_wb(mapping->host), WB_RECLAIMABLE, -1);
	xa_unlock_irqrestore(&mapping->i_pages, flags);
	return true;
}

void cancel_dirty_page(struct page *page)
{
	struct address_space *mapping = page->mapping;
	unsigned long flags;

	if (!mapping) {
		ClearPageDirty(page);
		return;
	}
	xa_lock_irqsave(&mapping->i_pages, flags);
	if (TestClearPageDirty(page))
		account_page_cleaned(page, mapping);
	xa_unlock_irqrestore(&mapping->i_pages, flags);
}

void set_page_writeback(struct page *page)
{
	struct address_space *mapping = page->mapping;
	unsigned long flags;

	BUG_ON(!PageLocked(page));
	if (TestSetPageWriteback(page))
		panic("set_page_writeback: page %lu of inode %lu already under writeback",
		      page->index, mapping && mapping->host ? mapping->host->i_ino : 0);
	if (!mapping) {
		mod_node_page_state(NR_WRITEBACK, 1);
		return;
	}
	xa_lock_irqsave(&mapping->i_pages, flags);
	if (mapping_can_writeback(mapping)) {
		struct inode *inode = mapping->host;
		struct bdi_writeback *wb = inode_to_wb(inode);
		bool on_wblist = mapping_tagged(mapping, PAGECACHE_TAG_WRITEBACK);

		if (!on_wblist) {
			wb->writeback_inodes++;
			sb_mark_inode_writeback(inode);
		}
		wb_stat_mod(wb, WB_WRITEBACK, 1);
	}
	xa_set_mark(&mapping->i_pages, page->index, PAGECACHE_TAG_WRITEBACK);
	if (!PageDirty(page))
		xa_clear_mark(&mapping->i_pages, page->index, PAGECACHE_TAG_DIRTY);
	xa_clear_mark(&mapping->i_pages, page->index, PAGECACHE_TAG_TOWRITE);
	mod_page_state(page, NR_WRITEBACK, 1);
	xa_unlock_irqrestore(&mapping->i_pages, flags);
}

/* May run in interrupt context (bio completion). */
void end_page_writeback(struct page *page)
{
	struct address_space *mapping = page->mapping;
	unsigned long flags;

	if (!mapping) {
		if (!TestClearPageWriteback(page))
			panic("end_page_writeback: page not under writeback");
		mod_node_page_state(NR_WRITEBACK, -1);
		mod_node_page_state(NR_WRITTEN, 1);
		wake_up_page(page);
		return;
	}
	xa_lock_irqsave(&mapping->i_pages, flags);
	if (!TestClearPageWriteback(page))
		panic("end_page_writeback: page %lu not under writeback", page->index);
	xa_clear_mark(&mapping->i_pages, page->index, PAGECACHE_TAG_WRITEBACK);
	if (mapping_can_writeback(mapping)) {
		struct inode *inode = mapping->host;
		struct bdi_writeback *wb = inode_to_wb(inode);

		wb_stat_mod(wb, WB_WRITEBACK, -1);
		__wb_writeout_add(wb, 1);
		if (!mapping_tagged(mapping, PAGECACHE_TAG_WRITEBACK)) {
			/* the inode's last page: refresh bandwidth a little later, leave the sync list */
			WARN_ON_ONCE(!wb->writeback_inodes);
			if (wb->writeback_inodes)
				wb->writeback_inodes--;
			queue_delayed_work(bdi_wq, &wb->bw_dwork, BANDWIDTH_INTERVAL);
			sb_clear_inode_writeback(inode);
		}
	}
	mod_page_state(page, NR_WRITEBACK, -1);
	mod_node_page_state(NR_WRITTEN, 1);
	xa_unlock_irqrestore(&mapping->i_pages, flags);
	wake_up_page(page);
}

/* ---------------------------------------------------------------- writing a mapping */

/* Tag every dirty page in [start, end] TOWRITE: integrity writeback writes exactly those. */
static void tag_pages_for_writeback(struct address_space *mapping, pgoff_t start, pgoff_t end)
{
	unsigned long flags, index = start;
	struct page *page;

	xa_lock_irqsave(&mapping->i_pages, flags);
	while ((page = xa_find(&mapping->i_pages, &index, end, PAGECACHE_TAG_DIRTY)) != NULL) {
		xa_set_mark(&mapping->i_pages, index, PAGECACHE_TAG_TOWRITE);
		if (index == end || index == ~0UL)
			break;
		index++;
	}
	xa_unlock_irqrestore(&mapping->i_pages, flags);
}

#define WRITE_BATCH 16

int write_cache_pages(struct address_space *mapping, struct writeback_control *wbc,
		      writepage_t writepage, void *data)
{
	struct page *pages[WRITE_BATCH];
	pgoff_t index, end, done_index;
	bool range_whole = false, done = false;
	xa_mark_t tag;
	int ret = 0;

	if (wbc->range_cyclic) {
		index = mapping->writeback_index;
		end = ~0UL;
	} else {
		index = (pgoff_t)(wbc->range_start >> PAGE_SHIFT);
		end = (pgoff_t)(wbc->range_end >> PAGE_SHIFT);
		range_whole = wbc->range_start == 0 && wbc->range_end == LLONG_MAX;
	}
	if (wbc->sync_mode == WB_SYNC_ALL || wbc->tagged_writepages) {
		tag_pages_for_writeback(mapping, index, end);
		tag = PAGECACHE_TAG_TOWRITE;
	} else {
		tag = PAGECACHE_TAG_DIRTY;
	}
	done_index = index;
	while (!done && index <= end) {
		unsigned int n = find_get_pages_tag(mapping, &index, end, tag, WRITE_BATCH, pages);
		if (!n)
			break;
		for (unsigned int i = 0; i < n; i++) {
			struct page *page = pages[i];

			if (done) {
				put_page(page);
				continue;
			}
			done_index = page->index;
			lock_page(page);
			if (page->mapping != mapping || !PageDirty(page)) {
				/* truncated, or someone else wrote it meanwhile */
				unlock_page(page);
				put_page(page);
				continue;
			}
			if (PageWriteback(page)) {
				if (wbc->sync_mode == WB_SYNC_NONE) {
					unlock_page(page);
					put_page(page);
					continue;
				}
				wait_on_page_writeback(page);
			}
			if (!clear_page_dirty_for_io(page)) {
				unlock_page(page);
				put_page(page);
				continue;
			}
			int err = writepage(page, wbc, data);
			put_page(page);
			if (err) {
				if (!ret)
					ret = err;
				if (wbc->sync_mode == WB_SYNC_NONE) {
					/* best effort: stop at the error, resume after this page */
					done_index = page->index + 1;
					done = true;
				}
			}
			if (--wbc->nr_to_write <= 0 && wbc->sync_mode == WB_SYNC_NONE)
				done = true;
		}
		cond_resched();
	}
	/* range_cyclic: next time resume where we stopped, or wrap to 0 if we got to the end */
	if (wbc->range_cyclic && !done)
		done_index = 0;
	if (wbc->range_cyclic || (range_whole && wbc->nr_to_write > 0))
		mapping->writeback_index = done_index;
	return ret;
}

static int writepage_cb(struct page *page, struct writeback_control *wbc, void *data)
{
	struct address_space *mapping = data;
	int ret = mapping->a_ops->writepage(page, wbc);

	mapping_set_error(mapping, ret);
	return ret;
}

int do_writepages(struct address_space *mapping, struct writeback_control *wbc)
{
	struct bdi_writeback *wb;
	int ret;

	if (wbc->nr_to_write <= 0 && wbc->sync_mode == WB_SYNC_NONE)
		return 0;
	if (!mapping->a_ops || (!mapping->a_ops->writepages && !mapping->a_ops->writepage))
		return 0;
	wb = inode_to_wb(mapping->host);
	wb_bandwidth_estimate_start(wb);
	for (;;) {
		if (mapping->a_ops->writepages)
			ret = mapping->a_ops->writepages(mapping, wbc);
		else
			ret = write_cache_pages(mapping, wbc, writepage_cb, mapping);
		if (ret != -ENOMEM || wbc->sync_mode != WB_SYNC_ALL)
			break;
		/* integrity writeback cannot give up for lack of memory: wait and retry */
		msleep(20);
	}
	if (time_after(jiffies, wb->bw_time_stamp + BANDWIDTH_INTERVAL)) {
		spin_lock(&wb->list_lock);
		__wb_update_bandwidth(wb);
		spin_unlock(&wb->list_lock);
	}
	return ret;
}

/* ---------------------------------------------------------------- throttling (5) */

/* f(dirty) = 1 + ((setpoint - dirty) / (limit - setpoint))^3 in 1/1024 units, in [0, 2] (5.3.1). */
static long pos_ratio_polynom(unsigned long setpoint, unsigned long dirty, unsigned long limit)
{
	/* a multiplication, not <<: the difference may be negative */
	long long x = ((long long)setpoint - (long long)dirty) * (1LL << RATELIMIT_CALC_SHIFT);
	long long pos;

	x /= (long long)((limit - setpoint) | 1);
	pos = x;
	pos = pos * x >> RATELIMIT_CALC_SHIFT;
	pos = pos * x >> RATELIMIT_CALC_SHIFT;
	pos += 1 << RATELIMIT_CALC_SHIFT;
	return clamp(pos, 0LL, 2LL << RATELIMIT_CALC_SHIFT);
}

static void wb_start_background_writeback(struct bdi_writeback *wb)
{
	wb_wakeup(wb);
}

/*
 * Linux's balance_dirty_pages() runs with the current task's wb (wb_get_create_current)
 * and calls mem_cgroup_flush_foreign(wb) right after waking the flusher once past the
 * freerun check. The wb here is the inode's, whose memcg is the owner, not the dirtier:
 * look up the task's own wb for the flush until this function takes it as Linux does.
 */
static void flush_foreign_of_current(struct backing_dev_info *bdi)
{
	struct bdi_writeback *wb = wb_get_create(bdi, mem_cgroup_from_task(current), GFP_KERNEL);

	if (wb) {
		mem_cgroup_flush_foreign(wb);
		wb_put(wb);
	}
}

/*
 * Sleep the current task in proportion to how far dirty memory is above the freerun
 * ceiling (5.4 for the global domain): one pause per call, or repeated pauses at the limit.
 */
static void balance_dirty_pages(struct bdi_writeback *wb, unsigned long pages_dirtied)
{
	struct dirty_throttle_control gdtc = { .wb = wb };

	for (;;) {
		unsigned long now = jiffies;
		unsigned long nr_dirty = global_node_page_state(NR_FILE_DIRTY);

		gdtc.avail = global_dirtyable_memory();
		gdtc.dirty = nr_dirty + global_node_page_state(NR_WRITEBACK);
		domain_dirty_limits(&gdtc);
		unsigned long freerun = dirty_freerun_ceiling(gdtc.thresh, gdtc.bg_thresh);

		if (nr_dirty > gdtc.bg_thresh && !writeback_in_progress(wb))
			wb_start_background_writeback(wb);
		if (gdtc.dirty <= freerun) {
			current->dirty_paused_when = now;
			current->nr_dirtied = 0;
			current->nr_dirtied_pause = (int)dirty_poll_interval(gdtc.dirty, gdtc.thresh);
			return;
		}
		if (!writeback_in_progress(wb))
			wb_start_background_writeback(wb);
		/* throttled: the foreign wbs the task's memcg dirtied for write too */
		flush_foreign_of_current(wb->bdi);
		wb_update_bandwidth(wb);

		unsigned long limit = gdtc.thresh;
		unsigned long setpoint = (freerun + limit) / 2;
		gdtc.pos_ratio = gdtc.dirty >= limit ? 0 :
				 (unsigned long)pos_ratio_polynom(setpoint, gdtc.dirty, limit);
		gdtc.wb_dirty = (unsigned long)(wb_stat(wb, WB_RECLAIMABLE) + wb_stat(wb, WB_WRITEBACK));
		unsigned long task_ratelimit =
			(wb->avg_write_bandwidth * gdtc.pos_ratio) >> RATELIMIT_CALC_SHIFT;
		long pause;

		if (!task_ratelimit) {
			pause = MAX_PAUSE;
		} else {
			long period = (long)(HZ * pages_dirtied / task_ratelimit);
			pause = current->dirty_paused_when ?
				period - (long)(now - current->dirty_paused_when) : period;
			if (pause < (long)max(HZ / 100, 1)) {
				/* too short to sleep for: carry it as debt in the task's virtual clock */
				if (pause < -HZ) {
					current->dirty_paused_when = now;
					current->nr_dirtied = 0;
				} else if (period) {
					current->dirty_paused_when += (unsigned long)period;
					current->nr_dirtied = 0;
				}
				return;
			}
			pause = min(pause, (long)MAX_PAUSE);
		}
		__set_current_state(TASK_KILLABLE);
		schedule_timeout(pause);
		current->dirty_paused_when = now + (unsigned long)pause;
		current->nr_dirtied = 0;
		current->nr_dirtied_pause = DIRTY_POLL_THRESH;
		if (task_ratelimit)
			return;
		/* at the limit: go round again, unless this wb has nothing left to write */
		if (!gdtc.wb_dirty || fatal_signal_pending(current))
			return;
	}
}

void balance_dirty_pages_ratelimited(struct address_space *mapping)
{
	struct inode *inode = mapping->host;
	struct backing_dev_info *bdi = inode_to_bdi(inode);

	if (!bdi_cap_writeback(bdi) || (mapping->flags & (1UL << AS_NO_ACCOUNT)))
		return;
	if (current->nr_dirtied < current->nr_dirtied_pause)
		return;
	balance_dirty_pages(inode_to_wb(inode), (unsigned long)current->nr_dirtied);
}

void page_writeback_init(void)
{
	writeback_set_ratelimit();
}
