/*
 * Reverse mapping (Linux's rmap): from a page-cache page to the programs' page table
 * entries that map it. The page tables are the system-call layer's (sys/rmap.c), which
 * registers how to reach them; the page cache asks through page_mkclean() when it is about
 * to write a dirty page (so that a program's next store faults and dirties it again) and
 * try_to_unmap() when a page leaves the cache (truncate). page->_mapcount counts the
 * entries; a page with any holds a reference per entry, so reclaim and invalidation, which
 * take only pages nobody else references, leave it alone.
 */
#ifndef CGWB_RMAP_H
#define CGWB_RMAP_H

#include <cgwb/mm.h>

struct rmap_ops {
	/* Write-protect every entry mapping the locked page. */
	void (*mkclean)(struct page *page);
	/* Remove every entry mapping the locked page. */
	void (*unmap)(struct page *page);
};

/**
 * rmap_register() - register who maps page-cache pages into programs
 * @ops: the operations page_mkclean() and try_to_unmap() call (sys/: programs' page
 *       tables), static
 *
 * mm/ cannot call up into sys/: the mapping side registers itself, once.
 *
 * Context: boot.
 */
void rmap_register(const struct rmap_ops *ops);
/* Write-protect, or remove, the entries of every page of the locked folio page is in. */
void page_mkclean(struct page *page);
void try_to_unmap(struct page *page);

static inline bool page_mapped(const struct page *page)
{
	return __atomic_load_n(&page->_mapcount, __ATOMIC_RELAXED) > 0;
}
/* Whether programs map any page of folio: each page of it counts its own entries. */
static inline bool folio_mapped(struct folio *folio)
{
	for (unsigned long i = 0; i < folio_nr_pages(folio); i++)
		if (page_mapped(folio_page(folio, i)))
			return true;
	return false;
}
static inline void page_mapcount_inc(struct page *page)
{
	__atomic_add_fetch(&page->_mapcount, 1, __ATOMIC_RELAXED);
}
static inline void page_mapcount_dec(struct page *page)
{
	__atomic_sub_fetch(&page->_mapcount, 1, __ATOMIC_RELAXED);
}

#endif
