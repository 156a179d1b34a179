/* The page cache's way to the programs' mappings of a page (include/cgwb/rmap.h). */
#include <cgwb/rmap.h>
#include <cgwb/pagemap.h>
#include <cgwb/bug.h>

static const struct rmap_ops *rmap_ops;

void rmap_register(const struct rmap_ops *ops)
{
	rmap_ops = ops;
}

/* Each page of the folio that programs map, one at a time: entries map pages, not folios. */
static void rmap_folio(struct folio *folio, void (*fn)(struct page *page))
{
	BUG_ON(!folio_test_locked(folio));
	if (!rmap_ops)
		return;
	for (unsigned long i = 0; i < folio_nr_pages(folio); i++)
		if (page_mapped(folio_page(folio, i)))
			fn(folio_page(folio, i));
}

void page_mkclean(struct page *page)
{
	rmap_folio(page_folio(page), rmap_ops ? rmap_ops->mkclean : NULL);
}

void try_to_unmap(struct page *page)
{
	rmap_folio(page_folio(page), rmap_ops ? rmap_ops->unmap : NULL);
}
