/*
 * Dirty pages: their accounting at each state transition and the generic writepages walk.
 * The dirty limits, the estimators and dirty throttling that this accounting feeds are in
 * page-writeback-limits.c, page-writeback-bandwidth.c, page-writeback-domain.c and page-writeback-throttle.c.
 */
#include <cgwb/rmap.h>
#include <cgwb/pagemap.h>
#include <cgwb/fs.h>
#include <cgwb/backing-dev.h>
#include <cgwb/writeback.h>
#include <cgwb/memcontrol.h>
#include <cgwb/vmstat.h>
#include <cgwb/vmscan.h>
#include <cgwb/bio.h>
#include <cgwb/sched.h>
#include <cgwb/printk.h>
#include <cgwb/bug.h>
#include <cgwb/trace/writeback.h>
#include "internal.h"

unsigned int dirty_writeback_interval = 5 * 100; /* centiseconds */
unsigned int dirty_expire_interval = 30 * 100;
unsigned int dirtytime_expire_interval = 12 * 60 * 60;

/* ---------------------------------------------------------------- page state */

static bool mapping_can_writeback(struct address_space *mapping)
{
	return !(mapping->flags & (1UL << AS_NO_ACCOUNT)) &&
	       bdi_cap_writeback(inode_to_bdi(mapping->host));
}

/*
 * A folio became dirty: count all its pages everywhere (Linux's folio_account_dirtied()).
 * i_pages lock held.
 */
static void account_page_dirtied(struct page *page, struct address_space *mapping)
{
	struct inode *inode = mapping->host;
	long nr = (long)compound_nr(page);

	if (!mapping_can_writeback(mapping))
		return;
	inode_attach_wb(inode, page);
	struct bdi_writeback *wb = inode_to_wb(inode);
	mod_page_state(page, NR_FILE_DIRTY, nr);
	mod_node_page_state(NR_DIRTIED, nr);
	wb_stat_mod(wb, WB_RECLAIMABLE, nr);
	wb_stat_mod(wb, WB_DIRTIED, nr);
	mem_cgroup_track_foreign_dirty(page, wb);
	trace_writeback_dirty_folio(page, mapping);
	current->nr_dirtied += (int)nr;
	this_cpu_add(bdp_ratelimits, nr);
}

/* A dirty page stops being dirty without being written (truncate). */
static void account_page_cleaned(struct page *page, struct address_space *mapping,
				 struct bdi_writeback *wb)
{
	long nr = (long)compound_nr(page);

	if (!mapping_can_writeback(mapping))
		return;
	mod_page_state(page, NR_FILE_DIRTY, -nr);
	wb_stat_mod(wb, WB_RECLAIMABLE, -nr);
}

bool __set_page_dirty_nobuffers(struct address_space *mapping, struct page *page)
{
	unsigned long flags;

	page = compound_head(page);
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
		flusher_hooks()->mark_inode_dirty(mapping->host, I_DIRTY_PAGES);
	return true;
}

bool set_page_dirty(struct page *page)
{
	page = compound_head(page); /* the folio's state, whichever page is named */
	struct address_space *mapping = page->mapping;

	if (!mapping)
		return !TestSetPageDirty(page);
	if (mapping->a_ops && mapping->a_ops->set_page_dirty)
		return mapping->a_ops->set_page_dirty(mapping, page);
	return __set_page_dirty_nobuffers(mapping, page);
}

void redirty_page_for_writepage(struct writeback_control *wbc, struct page *page)
{
	page = compound_head(page);
	struct address_space *mapping = page->mapping;

	wbc->pages_skipped++;
	if (set_page_dirty(page) && mapping && mapping_can_writeback(mapping)) {
		struct inode *inode = mapping->host;
		struct wb_lock_cookie cookie;
		struct bdi_writeback *wb = unlocked_inode_to_wb_begin(inode, &cookie);

		long nr = (long)compound_nr(page);

		/* not a new dirtying: undo the history counts set_page_dirty added */
		current->nr_dirtied -= (int)nr;
		mod_node_page_state(NR_DIRTIED, -nr);
		wb_stat_mod(wb, WB_DIRTIED, -nr);
		unlocked_inode_to_wb_end(inode, &cookie);
	}
}

bool clear_page_dirty_for_io(struct page *page)
{
	page = compound_head(page);
	struct address_space *mapping = page->mapping;

	BUG_ON(!PageLocked(page));
	/* a program's next store must fault and dirty it again (page_mkwrite) */
	if (folio_mapped(page_folio(page)))
		page_mkclean(page);
	if (!mapping || !mapping_can_writeback(mapping))
		return TestClearPageDirty(page);
	/* the DIRTY tag stays until set_page_writeback, so sync still finds the page */
	struct inode *inode = mapping->host;
	struct wb_lock_cookie cookie;
	struct bdi_writeback *wb = unlocked_inode_to_wb_begin(inode, &cookie);
	bool cleared = TestClearPageDirty(page);

	if (cleared) {
		long nr = (long)compound_nr(page);

		mod_page_state(page, NR_FILE_DIRTY, -nr);
		wb_stat_mod(wb, WB_RECLAIMABLE, -nr);
	}
	unlocked_inode_to_wb_end(inode, &cookie);
	return cleared;
}

void cancel_dirty_page(struct page *page)
{
	page = compound_head(page);
	struct address_space *mapping = page->mapping;
	struct wb_lock_cookie cookie;
	struct bdi_writeback *wb;

	if (!mapping || !mapping->host) {
		ClearPageDirty(page);
		return;
	}
	wb = unlocked_inode_to_wb_begin(mapping->host, &cookie);
	if (TestClearPageDirty(page))
		account_page_cleaned(page, mapping, wb);
	unlocked_inode_to_wb_end(mapping->host, &cookie);
}

void set_page_writeback(struct page *page)
{
	page = compound_head(page);
	struct address_space *mapping = page->mapping;
	long nr = (long)compound_nr(page);
	unsigned long flags;

	BUG_ON(!PageLocked(page));
	if (TestSetPageWriteback(page))
		panic("set_page_writeback: page %lu of inode %lu already under writeback",
		      page->index, mapping && mapping->host ? mapping->host->i_ino : 0);
	if (!mapping) {
		mod_node_page_state(NR_WRITEBACK, nr);
		return;
	}
	xa_lock_irqsave(&mapping->i_pages, flags);
	if (mapping_can_writeback(mapping)) {
		struct inode *inode = mapping->host;
		struct bdi_writeback *wb = inode_to_wb(inode);
		bool on_wblist = mapping_tagged(mapping, PAGECACHE_TAG_WRITEBACK);

		if (!on_wblist) {
			__atomic_add_fetch(&wb->writeback_inodes, 1, __ATOMIC_RELAXED);
			flusher_hooks()->sb_mark_inode_writeback(inode);
		}
		wb_stat_mod(wb, WB_WRITEBACK, nr);
	}
	xa_set_mark(&mapping->i_pages, page->index, PAGECACHE_TAG_WRITEBACK);
	if (!PageDirty(page))
		xa_clear_mark(&mapping->i_pages, page->index, PAGECACHE_TAG_DIRTY);
	xa_clear_mark(&mapping->i_pages, page->index, PAGECACHE_TAG_TOWRITE);
	mod_page_state(page, NR_WRITEBACK, nr);
	xa_unlock_irqrestore(&mapping->i_pages, flags);
}

/* May run in interrupt context (bio completion). */
void end_page_writeback(struct page *page)
{
	page = compound_head(page);
	struct address_space *mapping = page->mapping;
	long nr = (long)compound_nr(page);
	unsigned long flags;

	if (!mapping) {
		if (!TestClearPageWriteback(page))
			panic("end_page_writeback: page not under writeback");
		mod_node_page_state(NR_WRITEBACK, -nr);
		mod_node_page_state(NR_WRITTEN, nr);
		wake_up_page(page);
		reclaim_writeback_done();
		return;
	}
	xa_lock_irqsave(&mapping->i_pages, flags);
	if (!TestClearPageWriteback(page))
		panic("end_page_writeback: page %lu not under writeback", page->index);
	xa_clear_mark(&mapping->i_pages, page->index, PAGECACHE_TAG_WRITEBACK);
	if (mapping_can_writeback(mapping)) {
		struct inode *inode = mapping->host;
		struct bdi_writeback *wb = inode_to_wb(inode);

		wb_stat_mod(wb, WB_WRITEBACK, -nr);
		__wb_writeout_add(wb, nr);
		if (!mapping_tagged(mapping, PAGECACHE_TAG_WRITEBACK)) {
			/* the inode's last page: refresh bandwidth a little later, leave the sync list */
			WARN_ON_ONCE(
				__atomic_sub_fetch(&wb->writeback_inodes, 1, __ATOMIC_RELAXED) < 0);
			queue_delayed_work(bdi_wq, &wb->bw_dwork, BANDWIDTH_INTERVAL);
			flusher_hooks()->sb_clear_inode_writeback(inode);
		}
	}
	mod_page_state(page, NR_WRITEBACK, -nr);
	mod_node_page_state(NR_WRITTEN, nr);
	xa_unlock_irqrestore(&mapping->i_pages, flags);
	wake_up_page(page);
	reclaim_writeback_done();
}

/* ---------------------------------------------------------------- writing a mapping */

/* Tag every dirty page in [start, end] TOWRITE: integrity writeback writes exactly those. */
static void tag_pages_for_writeback(struct address_space *mapping, pgoff_t start, pgoff_t end)
{
	unsigned long flags, index = start;
	struct page *page;

	xa_lock_irqsave(&mapping->i_pages, flags);
	index = page_cache_folio_start(mapping, index);
	while ((page = xa_find(&mapping->i_pages, &index, end, PAGECACHE_TAG_DIRTY)) != NULL) {
		xa_set_mark(&mapping->i_pages, index, PAGECACHE_TAG_TOWRITE);
		index += compound_nr(page); /* past the folio */
		if (index > end || !index)
			break;
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
			long nr = (long)compound_nr(page);
			int err = writepage(page, wbc, data);
			put_page(page);
			if (err) {
				if (!ret)
					ret = err;
				if (wbc->sync_mode == WB_SYNC_NONE) {
					/* best effort: stop at the error, resume after this page */
					/* past the folio, measured while we held it */
					done_index += (pgoff_t)nr;
					done = true;
				}
			}
			wbc->nr_to_write -= nr;
			if (wbc->nr_to_write <= 0 && wbc->sync_mode == WB_SYNC_NONE)
				done = true;
			/*
			 * opt-in: clearly another group's pages; the switch sends the rest its
			 * way (set only in rounds that may end early: wbc_account_cgroup_owner)
			 */
			if (wbc->frn_clear)
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
	int ret;

	trace_wbc_writepage(wbc, inode_to_bdi(mapping->host));
	ret = mapping->a_ops->writepage(page, wbc);

	mapping_set_error(mapping, ret);
	return ret;
}

/* A bio per page or buffer: plugged, so that neighbours merge and the device is told once. */
static int generic_writepages(struct address_space *mapping, struct writeback_control *wbc)
{
	struct blk_plug plug;
	int ret;

	blk_start_plug(&plug);
	ret = write_cache_pages(mapping, wbc, writepage_cb, mapping);
	blk_finish_plug(&plug);
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
	/* the wb this writeback is attached to (Linux's inode_to_wb_wbc()): a switch under
	 * way may already have moved i_wb, the estimate belongs to the wb that writes */
	wb = wbc->wb ? wbc->wb : inode_to_wb(mapping->host);
	wb_bandwidth_estimate_start(wb);
	for (;;) {
		if (mapping->a_ops->writepages)
			ret = mapping->a_ops->writepages(mapping, wbc);
		else
			ret = generic_writepages(mapping, wbc);
		if (ret != -ENOMEM || wbc->sync_mode != WB_SYNC_ALL)
			break;
		/* integrity writeback cannot give up for lack of memory: wait and retry */
		msleep(20);
	}
	wb_update_bandwidth(wb);
	return ret;
}

/* Pages a task dirtied since its last throttling check are charged to the next dirtiers. */
static void dirty_throttle_task_exit(struct task_struct *task)
{
	this_cpu_add(dirty_throttle_leaks, task->nr_dirtied);
}

static const struct task_hooks dirty_throttle_task_hooks = { .exit = dirty_throttle_task_exit };

void page_writeback_init(void)
{
	register_task_hooks(&dirty_throttle_task_hooks);
	writeback_set_ratelimit();
}
