/* The page cache's way to the programs' mappings of a page (include/cgwb/rmap.h). */
#include <cgwb/rmap.h>
#include <cgwb/pagemap.h>
#include <cgwb/bug.h>

static const struct rmap_ops *rmap_ops;

void rmap_register(const struct rmap_ops *ops)
{
	rmap_ops = ops;
}

void page_mkclean(struct page *page)
{
	BUG_ON(!PageLocked(page));
	if (rmap_ops && page_mapped(page))
		rmap_ops->mkclean(page);
}

void try_to_unmap(struct page *page)
{
	BUG_ON(!PageLocked(page));
	if (rmap_ops && page_mapped(page))
		rmap_ops->unmap(page);
}
