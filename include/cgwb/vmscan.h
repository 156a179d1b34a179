/*
 * Page reclaim: the file LRU lists (inactive, active) and the reclaimer that frees clean
 * page-cache pages when memory runs low, waking writeback for dirty ones instead of
 * dropping them.
 */
#ifndef CGWB_VMSCAN_H
#define CGWB_VMSCAN_H

#include <cgwb/mm.h>

struct address_space;

/* A new page-cache page joins the inactive list (unless its mapping is unevictable). */
void lru_cache_add(struct page *page, struct address_space *mapping);
/* The page leaves the page cache. */
void lru_cache_del(struct page *page);
/* A use of the page: referenced, then promoted to the active list on a second use. */
void mark_page_accessed(struct page *page);

/* Free at least nr pages if possible; returns the number freed. */
unsigned long try_to_free_pages(gfp_t gfp, unsigned long nr);
/* Drop every clean, unused page-cache page (echo 1 > /proc/sys/vm/drop_caches). */
unsigned long drop_pagecache(void);
void vmscan_init(void);

#endif
