/*
 * The last reference to a page, as Linux's put_page() and __folio_put().
 *
 * A page-cache page leaves its LRU list and its memory cgroup here, when its last
 * reference goes, not when it leaves the cache. Between the two it may still be held:
 * reclaim takes pages off their list with a reference of its own and puts them back,
 * truncation takes them out of the cache meanwhile, a reader or an IO completion may hold
 * one too. Whoever drops the last reference finds the page wherever the others left it:
 * PG_lru and the lists change only under the LRU lock, and with the count at zero nobody
 * can take the page off a list again (reclaim takes a reference only if one is left), so
 * the release below sees the final state. The charge is held to the end for the same
 * reason: the page's list is its memcg's, and the charge keeps that memcg alive.
 */
#include <cgwb/mm.h>
#include <cgwb/vmscan.h>
#include <cgwb/memcontrol.h>

void put_page(struct page *page)
{
	page = compound_head(page);
	if (!put_page_testzero(page))
		return;
	if (READ_ONCE(page->memcg)) { /* charged: it was in the page cache */
		__page_cache_release(page);
		mem_cgroup_uncharge(page);
	}
	free_unref_page(page, compound_order(page));
}
