/*
 * Page reclaim (portable). Page-cache pages sit on two LRU lists: new pages on the inactive
 * list, pages used twice on the active list. Reclaim walks the inactive list from its old
 * end, gives referenced pages a second chance, frees clean unused pages, and leaves dirty
 * and under-writeback pages alone while waking the flushers for them: writeback cleans
 * them, then a later pass frees them. When the active list grows larger than the inactive
 * one, its oldest pages are moved down.
 */
#include <cgwb/vmscan.h>
#include <cgwb/pagemap.h>
#include <cgwb/fs.h>
#include <cgwb/writeback.h>
#include <cgwb/vmstat.h>
#include <cgwb/sched.h>
#include <cgwb/mutex.h>
#include <cgwb/bug.h>

static LIST_HEAD(inactive_list);
static LIST_HEAD(active_list);
static DEFINE_SPINLOCK(lru_lock);
static DEFINE_MUTEX(reclaim_mutex);

static bool mapping_unevictable(const struct address_space *mapping)
{
	return mapping && (mapping->flags & (1UL << AS_UNEVICTABLE));
}

void lru_cache_add(struct page *page, struct address_space *mapping)
{
	unsigned long flags;

	if (mapping_unevictable(mapping)) {
		mod_page_state(page, NR_UNEVICTABLE, 1);
		return;
	}
	spin_lock_irqsave(&lru_lock, flags);
	SetPageLRU(page);
	list_add(&page->lru, &inactive_list);
	mod_page_state(page, NR_INACTIVE_FILE, 1);
	spin_unlock_irqrestore(&lru_lock, flags);
}

/* Take the page off its list. lru_lock held, PageLRU set. */
static void del_page_from_lru(struct page *page)
{
	list_del_init(&page->lru);
	ClearPageLRU(page);
	if (TestClearPageActive(page))
		mod_page_state(page, NR_ACTIVE_FILE, -1);
	else
		mod_page_state(page, NR_INACTIVE_FILE, -1);
}

void lru_cache_del(struct page *page)
{
	unsigned long flags;

	if (mapping_unevictable(page->mapping)) {
		mod_page_state(page, NR_UNEVICTABLE, -1);
		return;
	}
	spin_lock_irqsave(&lru_lock, flags);
	if (PageLRU(page))
		del_page_from_lru(page);
	spin_unlock_irqrestore(&lru_lock, flags);
}

void mark_page_accessed(struct page *page)
{
	unsigned long flags;

	if (!PageReferenced(page)) {
		SetPageReferenced(page);
		return;
	}
	spin_lock_irqsave(&lru_lock, flags);
	if (PageLRU(page) && !PageActive(page)) {
		list_move(&page->lru, &active_list);
		SetPageActive(page);
		mod_page_state(page, NR_INACTIVE_FILE, -1);
		mod_page_state(page, NR_ACTIVE_FILE, 1);
		ClearPageReferenced(page);
		count_vm_events(PGACTIVATE, 1);
	}
	spin_unlock_irqrestore(&lru_lock, flags);
}

/* Move the oldest active pages down until the active list is no larger than the inactive. */
static void shrink_active_list(unsigned long nr)
{
	unsigned long flags;

	spin_lock_irqsave(&lru_lock, flags);
	while (nr-- && !list_empty(&active_list) &&
	       global_node_page_state(NR_ACTIVE_FILE) > global_node_page_state(NR_INACTIVE_FILE)) {
		struct page *page = list_last_entry(&active_list, struct page, lru);
		list_move(&page->lru, &inactive_list);
		ClearPageActive(page);
		ClearPageReferenced(page);
		mod_page_state(page, NR_ACTIVE_FILE, -1);
		mod_page_state(page, NR_INACTIVE_FILE, 1);
		count_vm_events(PGDEACTIVATE, 1);
	}
	spin_unlock_irqrestore(&lru_lock, flags);
}

static void putback_page(struct page *page)
{
	unsigned long flags;

	spin_lock_irqsave(&lru_lock, flags);
	if (page->mapping && !PageLRU(page)) {
		SetPageLRU(page);
		list_add(&page->lru, &inactive_list);
		mod_page_state(page, NR_INACTIVE_FILE, 1);
	}
	spin_unlock_irqrestore(&lru_lock, flags);
	put_page(page);
}

struct scan_result {
	unsigned long scanned, freed, dirty, writeback;
};

/* Try to free one isolated page (we hold a reference); false means put it back. */
static bool reclaim_page(struct page *page, gfp_t gfp, struct scan_result *sr)
{
	struct address_space *mapping;

	if (!trylock_page(page))
		return false;
	mapping = page->mapping;
	if (!mapping)
		goto keep; /* truncated meanwhile: its last reference frees it */
	if (PageWriteback(page)) {
		sr->writeback++;
		goto keep;
	}
	if (PageDirty(page)) {
		sr->dirty++;
		goto keep;
	}
	if (page_count(page) > 2) /* the cache's and ours: anything more is a user */
		goto keep;
	if (PagePrivate(page) &&
	    (!mapping->a_ops->release_folio || !mapping->a_ops->release_folio(page, gfp)))
		goto keep;
	delete_from_page_cache(page);
	unlock_page(page);
	return true;
keep:
	unlock_page(page);
	return false;
}

static void shrink_inactive_list(unsigned long nr_to_scan, gfp_t gfp, struct scan_result *sr)
{
	unsigned long flags;

	while (nr_to_scan--) {
		struct page *page;

		spin_lock_irqsave(&lru_lock, flags);
		if (list_empty(&inactive_list)) {
			spin_unlock_irqrestore(&lru_lock, flags);
			break;
		}
		page = list_last_entry(&inactive_list, struct page, lru);
		sr->scanned++;
		if (TestClearPageReferenced(page)) {
			/* used since it came down: second chance at the young end */
			list_move(&page->lru, &inactive_list);
			spin_unlock_irqrestore(&lru_lock, flags);
			continue;
		}
		get_page(page);
		del_page_from_lru(page);
		spin_unlock_irqrestore(&lru_lock, flags);

		if (reclaim_page(page, gfp, sr)) {
			put_page(page); /* the last reference: the page is free */
			sr->freed++;
		} else {
			putback_page(page);
		}
	}
}

unsigned long try_to_free_pages(gfp_t gfp, unsigned long nr)
{
	struct scan_result sr = { 0 };
	unsigned long lru = global_node_page_state(NR_INACTIVE_FILE) +
			    global_node_page_state(NR_ACTIVE_FILE);

	mutex_lock(&reclaim_mutex);
	shrink_active_list(max(nr * 2, 32UL));
	shrink_inactive_list(min(max(nr * 4, 64UL), lru + 1), gfp, &sr);
	if (sr.freed < nr && (gfp & __GFP_FS)) {
		/* unused dentries pin inodes, unused inodes pin their pages */
		prune_dcache(nr);
		sr.freed += prune_icache(nr);
	}
	mutex_unlock(&reclaim_mutex);
	count_vm_events(PGSCAN, sr.scanned);
	count_vm_events(PGSTEAL, sr.freed);

	if (sr.dirty + sr.writeback) {
		/* memory is held by dirty pages: have them written, give writeback a moment */
		wakeup_flusher_threads(WB_REASON_VMSCAN);
		if (sr.freed < nr && gfpflags_allow_blocking(gfp))
			msleep(sr.writeback ? 10 : 2);
	}
	return sr.freed;
}

static unsigned long reclaim_for_allocation(gfp_t gfp, unsigned int order)
{
	return try_to_free_pages(gfp, 32UL << order);
}

unsigned long drop_pagecache(void)
{
	unsigned long freed = 0, lru;

	do {
		lru = global_node_page_state(NR_INACTIVE_FILE) + global_node_page_state(NR_ACTIVE_FILE);
		shrink_active_list(lru);
		struct scan_result sr = { 0 };
		mutex_lock(&reclaim_mutex);
		shrink_inactive_list(lru, GFP_KERNEL, &sr);
		mutex_unlock(&reclaim_mutex);
		freed += sr.freed;
		if (!sr.freed)
			break;
	} while (true);
	count_vm_events(DROP_PAGECACHE, 1);
	return freed;
}

void vmscan_init(void)
{
	page_alloc_reclaim = reclaim_for_allocation;
}
