/*
 * Page reclaim: the file LRU lists (inactive, active; one pair per memory cgroup) and the
 * reclaimer that frees clean page-cache pages when memory runs low or a memory cgroup is
 * at its limit, waking writeback for dirty ones instead of dropping them.
 */
#ifndef CGWB_VMSCAN_H
#define CGWB_VMSCAN_H

#include <cgwb/mm.h>
#include <cgwb/list.h>

struct address_space;
struct mem_cgroup;
struct lruvec;

/* A new page-cache page joins the inactive list (unless its mapping is unevictable). */
void lru_cache_add(struct page *page, struct address_space *mapping);
/*
 * A charged page's last reference is gone (put_page()): it leaves its LRU list, or its
 * unevictable count, now. Leaving the cache does not take it off: see mm/swap.c.
 */
void __page_cache_release(struct page *page);
/* A use of the page: referenced, then promoted to the active list on a second use. */
void mark_page_accessed(struct page *page);

/* Free at least nr pages if possible; returns the number freed. */
unsigned long try_to_free_pages(gfp_t gfp, unsigned long nr);
/*
 * Reclaim at least nr pages from memcg and its descendants if possible (a group at its
 * limit): clean pages are freed, the flushers woken for dirty ones. Returns pages freed.
 */
unsigned long try_to_free_mem_cgroup_pages(struct mem_cgroup *memcg, unsigned long nr, gfp_t gfp);
/* A page ended writeback (any context): wakes reclaim waiting for memory to come back. */
void reclaim_writeback_done(void);
/* Is the current task reclaiming (a charge made from inside reclaim must not wait)? */
bool current_in_reclaim(void);
/* A memory cgroup's LRU lists (mem_cgroup.lruvec), made and freed with the memcg. */
struct lruvec *lruvec_alloc(gfp_t gfp);
void lruvec_free(struct lruvec *lruvec);
/*
 * A cache above mm that reclaim may shrink (Linux's shrinkers): the VFS's unused dentries
 * and inodes, which pin page-cache pages. scan(nr) frees up to nr objects and returns how
 * many pages that freed. Shrinkers run in registration order, for allocations that may
 * enter the filesystem (__GFP_FS).
 */
struct shrinker {
	unsigned long (*scan)(unsigned long nr);
	struct list_head list;
};
void register_shrinker(struct shrinker *shrinker);

/* Drop every clean, unused page-cache page (echo 1 > /proc/sys/vm/drop_caches). */
unsigned long drop_pagecache(void);
void vmscan_init(void);

#endif
