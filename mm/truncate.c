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

/* A whole folio goes: wait for its IO, drop private state, undo dirty accounting. */
static void truncate_complete_folio(struct address_space *mapping, struct folio *folio)
{
	folio_wait_writeback(folio);
	if (folio->mapping != mapping)
		return;
	if (folio_mapped(folio))
		try_to_unmap(&folio->page); /* programs mapping it past the new end lose it, as on Linux */
	if (folio_test_private(folio) && mapping->a_ops->invalidatepage)
		mapping->a_ops->invalidatepage(&folio->page, 0, (unsigned int)folio_size(folio));
	folio_clear_uptodate(folio);
	filemap_remove_folio(folio);
}

/* Bytes [from, to) of a folio that stays read as zeros, and lose their private state. */
static void truncate_partial_folio(struct address_space *mapping, struct folio *folio, size_t from,
				   size_t to)
{
	folio_wait_writeback(folio);
	if (folio->mapping != mapping)
		return;
	if (folio_test_uptodate(folio))
		memset((char *)folio_address(folio) + from, 0, to - from);
	if (folio_test_private(folio) && mapping->a_ops->invalidatepage)
		mapping->a_ops->invalidatepage(&folio->page, (unsigned int)from,
					       (unsigned int)(to - from));
}

static void truncate_folio_range(struct address_space *mapping, struct folio *folio, loff_t lstart,
				 loff_t lend);

/* The pages of a folio just split, each truncated as a folio of its own; the head last. */
static void truncate_split_pages(struct address_space *mapping, struct page *head, unsigned long nr,
				 loff_t lstart, loff_t lend)
{
	for (unsigned long i = 1; i < nr; i++) {
		struct folio *page = page_folio(head + i);

		truncate_folio_range(mapping, page, lstart, lend);
		folio_unlock(page);
		folio_put(page);
	}
	truncate_folio_range(mapping, page_folio(head), lstart, lend);
}

/*
 * What of folio the truncation of [lstart, lend] takes: the bytes from lstart in the folio
 * that holds it, whole pages elsewhere (the page holding lend keeps its head: the
 * filesystem zeroes that part of a block itself). A large folio partly in the range is
 * split, as Linux's truncate_inode_partial_folio() does, so that the pages past a file's
 * new end are freed; one that cannot be (someone else holds it) keeps its pages, the part
 * in the range zeroed.
 */
static void truncate_folio_range(struct address_space *mapping, struct folio *folio, loff_t lstart,
				 loff_t lend)
{
	loff_t pos = folio_pos(folio), end = pos + (loff_t)folio_size(folio);
	loff_t zstart = max(lstart, pos), zend = lend == LLONG_MAX ? end : min(lend + 1, end);
	unsigned long nr = folio_nr_pages(folio);

	if (!(lstart & ~(loff_t)PAGE_MASK) || lstart < pos)
		zend &= (loff_t)PAGE_MASK;
	if (zend <= zstart)
		return;
	if (zstart == pos && zend == end)
		truncate_complete_folio(mapping, folio);
	else if (nr > 1 && !split_folio(folio))
		truncate_split_pages(mapping, &folio->page, nr, lstart, lend);
	else
		truncate_partial_folio(mapping, folio, (size_t)(zstart - pos), (size_t)(zend - pos));
}

void truncate_inode_pages_range(struct address_space *mapping, loff_t lstart, loff_t lend)
{
	pgoff_t index = (pgoff_t)(lstart >> PAGE_SHIFT);
	pgoff_t end = lend == LLONG_MAX ? ~0UL : (pgoff_t)(lend >> PAGE_SHIFT);
	struct page *pages[BATCH];
	unsigned int n;

	if (!mapping->nrpages || lend < lstart)
		return;
	while (index <= end && (n = find_get_pages_range(mapping, &index, end, BATCH, pages))) {
		for (unsigned int i = 0; i < n; i++) {
			struct folio *folio = page_folio(pages[i]);

			folio_lock(folio);
			if (folio->mapping == mapping)
				truncate_folio_range(mapping, folio, lstart, lend);
			folio_unlock(folio);
			folio_put(folio);
		}
		if (index == ~0UL || !index)
			break;
	}
}

void truncate_inode_pages(struct address_space *mapping, loff_t lstart)
{
	truncate_inode_pages_range(mapping, lstart, LLONG_MAX);
}

/* Whether a locked folio of mapping can go: clean, idle, its buffers released, unused. */
static bool folio_invalidatable(struct address_space *mapping, struct folio *folio)
{
	/* buffers hold a page reference: release them before counting users */
	return folio->mapping == mapping && !folio_test_dirty(folio) &&
	       !folio_test_writeback(folio) &&
	       (!folio_test_private(folio) ||
		(mapping->a_ops->releasepage &&
		 mapping->a_ops->releasepage(&folio->page, GFP_KERNEL))) &&
	       folio_ref_count(folio) == 2;
}

unsigned long invalidate_mapping_pages(struct address_space *mapping, pgoff_t start, pgoff_t end)
{
	struct page *pages[BATCH];
	unsigned long dropped = 0;
	unsigned int n;
	pgoff_t index = start;

	while (index <= end && (n = find_get_pages_range(mapping, &index, end, BATCH, pages))) {
		for (unsigned int i = 0; i < n; i++) {
			struct folio *folio = page_folio(pages[i]);
			bool inside = folio->index >= start && folio_next_index(folio) - 1 <= end;

			if (inside && folio_trylock(folio)) {
				if (folio_invalidatable(mapping, folio)) {
					dropped += folio_nr_pages(folio);
					filemap_remove_folio(folio);
				}
				folio_unlock(folio);
			}
			folio_put(folio);
		}
		if (index == ~0UL || !index)
			break;
	}
	return dropped;
}
