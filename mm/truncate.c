/*
 * Removing pages from the page cache: truncation (the file got shorter, or the inode is
 * being evicted) and invalidation of clean pages.
 */
#include <cgwb/pagemap.h>
#include <cgwb/fs.h>
#include <cgwb/string.h>
#include <cgwb/bug.h>
#include <cgwb/rmap.h>

#define BATCH 16

/* A whole page goes: wait for its IO, drop private state, undo dirty accounting. */
static void truncate_complete_page(struct address_space *mapping, struct page *page)
{
	wait_on_page_writeback(page);
	if (page->mapping != mapping)
		return;
	if (page_mapped(page))
		try_to_unmap(page); /* programs mapping it past the new end lose it, as on Linux */
	if (PagePrivate(page) && mapping->a_ops->invalidatepage)
		mapping->a_ops->invalidatepage(page, 0, PAGE_SIZE);
	ClearPageUptodate(page);
	delete_from_page_cache(page);
}

/* The page containing lstart keeps its head; the tail past lstart becomes zeros. */
static void truncate_partial_page(struct address_space *mapping, loff_t lstart, loff_t lend)
{
	size_t from = (size_t)(lstart & (PAGE_SIZE - 1));
	size_t to = PAGE_SIZE;
	struct page *page = find_lock_page(mapping, (pgoff_t)(lstart >> PAGE_SHIFT));

	if (!page)
		return;
	if ((lend >> PAGE_SHIFT) == (lstart >> PAGE_SHIFT))
		to = (size_t)(lend & (PAGE_SIZE - 1)) + 1;
	wait_on_page_writeback(page);
	if (PageUptodate(page))
		memset((char *)page_address(page) + from, 0, to - from);
	if (PagePrivate(page) && mapping->a_ops->invalidatepage)
		mapping->a_ops->invalidatepage(page, from, to - from);
	unlock_page(page);
	put_page(page);
}

void truncate_inode_pages_range(struct address_space *mapping, loff_t lstart, loff_t lend)
{
	pgoff_t start = (pgoff_t)((lstart + (loff_t)PAGE_SIZE - 1) >> PAGE_SHIFT);
	/* whole pages [start, end_excl); a partial page at lstart keeps its head */
	pgoff_t end_excl = lend == LLONG_MAX ? ~0UL : (pgoff_t)((lend + 1) >> PAGE_SHIFT);
	struct page *pages[BATCH];
	unsigned int n;

	if (!mapping->nrpages)
		return;
	if (lstart & (PAGE_SIZE - 1))
		truncate_partial_page(mapping, lstart, lend);
	if (start >= end_excl)
		return;
	pgoff_t end = end_excl - 1;

	pgoff_t index = start;
	while (index <= end && (n = find_get_pages_range(mapping, &index, end, BATCH, pages))) {
		for (unsigned int i = 0; i < n; i++) {
			lock_page(pages[i]);
			if (pages[i]->mapping == mapping)
				truncate_complete_page(mapping, pages[i]);
			unlock_page(pages[i]);
			put_page(pages[i]);
		}
		if (index == ~0UL || !index)
			break;
	}
}

void truncate_inode_pages(struct address_space *mapping, loff_t lstart)
{
	truncate_inode_pages_range(mapping, lstart, LLONG_MAX);
}

unsigned long invalidate_mapping_pages(struct address_space *mapping, pgoff_t start, pgoff_t end)
{
	struct page *pages[BATCH];
	unsigned long dropped = 0;
	unsigned int n;
	pgoff_t index = start;

	while (index <= end && (n = find_get_pages_range(mapping, &index, end, BATCH, pages))) {
		for (unsigned int i = 0; i < n; i++) {
			struct page *page = pages[i];

			if (trylock_page(page)) {
				/* buffers hold a page reference: release them before counting users */
				if (page->mapping == mapping && !PageDirty(page) &&
				    !PageWriteback(page) &&
				    (!PagePrivate(page) ||
				     (mapping->a_ops->releasepage &&
				      mapping->a_ops->releasepage(page, GFP_KERNEL))) &&
				    page_count(page) == 2) {
					delete_from_page_cache(page);
					dropped++;
				}
				unlock_page(page);
			}
			put_page(page);
		}
		if (index == ~0UL || !index)
			break;
	}
	return dropped;
}
