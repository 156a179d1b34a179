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
/*
 * The pages of a folio being split (split_folio(), its count frozen, PG_lru copied to each)
 * join its list right after it, each counting one of the pages it counted.
 */
void lru_split_folio(struct page *head, unsigned long nr);
/* A use of the page: referenced, then promoted to the active list on a second use. */
void mark_page_accessed(struct page *page);

/* Free at least nr pages if possible; returns the number freed. */
unsigned long try_to_free_pages(gfp_t gfp, unsigned long nr);
/**
 * try_to_free_mem_cgroup_pages() - reclaim pages from a memory cgroup's subtree
 * @memcg: the group at its limit; its descendants are reclaimed from too
 * @nr: how many pages to free, at least, if possible
 * @gfp: the charge's gfp (whether the filesystem may be entered)
 *
 * Clean pages are freed; if dirty pages or pages under writeback were found, the flushers
 * are woken (the caller decides whether to wait for them). The time counts as a memory
 * stall. A reclaim nested in reclaim gives up at once.
 *
 * Context: process context; may sleep; takes the reclaim mutex.
 * Return: the number of pages freed.
 */
unsigned long try_to_free_mem_cgroup_pages(struct mem_cgroup *memcg, unsigned long nr, gfp_t gfp);
/* A page ended writeback (any context): wakes reclaim waiting for memory to come back. */
void reclaim_writeback_done(void);
/**
 * current_in_reclaim() - is the current task reclaiming?
 *
 * A charge made from inside reclaim must not wait for reclaim.
 *
 * Context: any context.
 * Return: true if it holds the reclaim mutex or runs a shrinker.
 */
bool current_in_reclaim(void);
/**
 * lruvec_alloc() - allocate a memory cgroup's LRU lists, empty
 * @gfp: how to allocate them
 *
 * Context: as kmalloc() with @gfp.
 * Return: the lists, or NULL.
 */
struct lruvec *lruvec_alloc(gfp_t gfp);
/**
 * lruvec_free() - free a memory cgroup's LRU lists
 * @lruvec: the lists, empty (a page left on them is warned about), or NULL
 *
 * Context: any context; never sleeps.
 */
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
/**
 * register_shrinker() - let reclaim shrink a cache
 * @shrinker: the shrinker, static; registering it twice does nothing
 *
 * Context: boot (storage_init()); the list is not locked.
 */
void register_shrinker(struct shrinker *shrinker);

/**
 * drop_pagecache() - drop every clean, unused page-cache page
 *
 * echo 1 > /proc/sys/vm/drop_caches: rounds over every memcg's file LRU lists until one
 * frees nothing. Like Linux's, not counted as reclaim in pgscan and pgsteal.
 *
 * Context: process context; sleeps; takes the reclaim mutex (nothing is done from inside
 * reclaim).
 * Return: the number of pages freed.
 */
unsigned long drop_pagecache(void);
/**
 * vmscan_init() - hook reclaim into the page allocator
 *
 * From then on an allocation that may block reclaims when memory is short, and a failed
 * one shows the memory state.
 *
 * Context: boot, once (storage_init()).
 */
void vmscan_init(void);

#endif
