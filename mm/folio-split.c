/*
 * Splitting a large page-cache folio into single pages (Linux's split_folio(), in its
 * mm/huge_memory.c), so that truncation frees the pages past the new end of a file instead
 * of keeping them as zeros.
 *
 * Only a folio nothing else holds is split: locked by the caller, not under writeback,
 * with no private state (its filesystem's would have to be split too) and no program
 * mapping it (each mapping holds a reference on the folio that would have to become one
 * on its page), and with no reference but the cache's and the caller's. The count is
 * frozen at zero while the pages are taken apart, so that a lockless lookup, which takes
 * a reference only on a count that is not zero (get_page_unless_zero()), waits for the
 * end instead of taking one on a folio that is changing shape. The pages split off are
 * frozen too until they are on the LRU list their PG_lru names: a reader that found one
 * earlier could mark it accessed and move it by links it does not have yet.
 *
 * Locks: the mapping's i_pages lock, then the LRU lock inside it (lru_split_folio()).
 * Everything a folio counts by its number of pages stays as it was: each page now counts
 * one of them (the memcg charge, the file, LRU, dirty and wb counts), so the totals and
 * the per-wb counts need no change.
 */
#include <cgwb/pagemap.h>
#include <cgwb/rmap.h>
#include <cgwb/vmscan.h>
#include <cgwb/memcontrol.h>
#include <cgwb/bug.h>
#include <cgwb/errno.h>

/* The state a page of a split folio takes from its head: the rest is the head's alone. */
#define SPLIT_FLAGS                                                                               \
	((1UL << PG_locked) | (1UL << PG_referenced) | (1UL << PG_uptodate) | (1UL << PG_dirty) | \
	 (1UL << PG_lru) | (1UL << PG_active) | (1UL << PG_error) | (1UL << PG_mappedtodisk) |    \
	 (1UL << PG_unevictable))

/* Page i of head becomes a page of the cache of its own. i_pages lock held. */
static void split_tail(struct address_space *mapping, struct page *head, unsigned long i)
{
	struct page *tail = head + i;
	pgoff_t index = head->index + i;

	tail->compound_head = 0;
	tail->compound_order = 0;
	tail->flags = head->flags & SPLIT_FLAGS;
	tail->mapping = mapping;
	tail->index = index;
	tail->private = 0;
	tail->_refcount = 0; /* frozen until it is on its list (split_folio()) */
	xa_replace(&mapping->i_pages, index, tail);
	/* the tags were the folio's, at its first index: now each page's */
	if (xa_get_mark(&mapping->i_pages, head->index, PAGECACHE_TAG_DIRTY))
		xa_set_mark(&mapping->i_pages, index, PAGECACHE_TAG_DIRTY);
	if (xa_get_mark(&mapping->i_pages, head->index, PAGECACHE_TAG_TOWRITE))
		xa_set_mark(&mapping->i_pages, index, PAGECACHE_TAG_TOWRITE);
}

int split_folio(struct folio *folio)
{
	struct address_space *mapping = folio->mapping;
	unsigned long nr = folio_nr_pages(folio), flags;
	struct page *head = &folio->page;
	int expected = 2; /* the cache's and the caller's */

	BUG_ON(!folio_test_locked(folio));
	if (!folio_test_large(folio))
		return 0;
	if (!mapping || folio_test_writeback(folio) || folio_test_private(folio) ||
	    folio_mapped(folio))
		return -EBUSY;
	xa_lock_irqsave(&mapping->i_pages, flags);
	if (folio->mapping != mapping ||
	    !__atomic_compare_exchange_n(&head->_refcount, &expected, 0, false, __ATOMIC_ACQUIRE,
					 __ATOMIC_RELAXED)) {
		xa_unlock_irqrestore(&mapping->i_pages, flags);
		return -EBUSY; /* someone else holds it */
	}
	mem_cgroup_split_folio(head, nr);
	for (unsigned long i = 1; i < nr; i++)
		split_tail(mapping, head, i);
	lru_split_folio(head, nr);
	ClearPageHead(head);
	/* each the cache's reference, and the caller's until it unlocks the page */
	for (unsigned long i = 0; i < nr; i++)
		__atomic_store_n(&head[i]._refcount, 2, __ATOMIC_RELEASE);
	xa_unlock_irqrestore(&mapping->i_pages, flags);
	return 0;
}
