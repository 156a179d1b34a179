/*
 * Physical pages. One struct page per 4 KiB frame, sized to carry page-cache state (mapping,
 * index, flags, LRU links, the owning memory cgroup) as well as the allocator's own.
 */
#ifndef CGWB_MM_H
#define CGWB_MM_H

#include <cgwb/list.h>
#include <cgwb/gfp.h>
#include <cgwb/bug.h>

#define PAGE_SHIFT 12
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#define PAGE_MASK (~(PAGE_SIZE - 1))
#define PAGE_ALIGN(x) ALIGN((x), PAGE_SIZE)
#define PFN_UP(x) (((x) + PAGE_SIZE - 1) >> PAGE_SHIFT)
#define PFN_DOWN(x) ((x) >> PAGE_SHIFT)
#define MAX_ORDER 10 /* largest block: 2^10 pages = 4 MiB */

struct address_space;
struct mem_cgroup;

enum pageflags {
	PG_locked,
	PG_referenced,
	PG_uptodate,
	PG_dirty,
	PG_lru,
	PG_active,
	PG_writeback,
	PG_reclaim,
	PG_error,
	PG_reserved, /* not managed by the allocator (kernel image, firmware) */
	PG_buddy,    /* free, head of a buddy block of order page->private */
	PG_slab,     /* owned by the slab allocator */
	PG_head,     /* first page of a multi-page allocation (a compound page) */
	PG_private,  /* page->private is in use by the filesystem */
	PG_mappedtodisk,
	PG_unevictable,   /* in an unevictable mapping's cache: counted, on no LRU list */
	PG_large_kmalloc, /* a kmalloc() too large for the slab caches */
	PG_nr,
};

struct kmem_cache;

/*
 * A block of 2^order pages (order > 0) from alloc_pages() is a compound page, as Linux's:
 * its first page has PG_head and carries the state of the whole block; every other page
 * is a tail page whose compound_head points back at it (bit 0 set, which no list pointer
 * has), and the first tail page holds the order. Tail pages are never on a list, so the
 * words of ->lru are theirs; ->private of the head stays the owner's.
 */
struct page {
	unsigned long flags;
	int _refcount;
	int _mapcount; /* programs' page table entries mapping it (include/cgwb/rmap.h) */
	union {
		struct { /* page cache, and free buddy blocks */
			struct address_space *mapping;
			pgoff_t index;         /* offset in the file, in pages */
			unsigned long private; /* buddy order, or the owner's data */
		};
		struct { /* slab pages */
			struct kmem_cache *slab_cache;
			void *freelist;
			u64 slab_used; /* bitmap of allocated objects (<= 64 per page) */
		};
	};
	union {
		struct list_head lru;                 /* free list, LRU list, or slab list */
		struct {                              /* tail pages of a compound page */
			unsigned long compound_head;  /* the head page, bit 0 set */
			unsigned char compound_order; /* first tail page: the block's order */
		};
	};
	struct mem_cgroup *memcg; /* memory cgroup charged for this page */
};

/*
 * A folio is a page that is not a tail page, standing for the whole block it heads: one
 * page, or the 2^order pages of a compound page (Linux's struct folio, laid over the head's
 * struct page). What the page cache holds, locks, dirties and writes back is a folio.
 */
struct folio {
	union {
		struct {
			unsigned long flags;
			int _refcount;
			int _mapcount;
			struct address_space *mapping;
			pgoff_t index;
			unsigned long private;
			struct list_head lru;
			struct mem_cgroup *memcg;
		};
		struct page page;
	};
};
#define FOLIO_MATCH(pg, fl) \
	_Static_assert(offsetof(struct page, pg) == offsetof(struct folio, fl), "folio: " #fl)
FOLIO_MATCH(flags, flags);
FOLIO_MATCH(_refcount, _refcount);
FOLIO_MATCH(_mapcount, _mapcount);
FOLIO_MATCH(mapping, mapping);
FOLIO_MATCH(index, index);
FOLIO_MATCH(private, private);
FOLIO_MATCH(lru, lru);
FOLIO_MATCH(memcg, memcg);
#undef FOLIO_MATCH
_Static_assert(sizeof(struct folio) == sizeof(struct page), "a folio is its head page");

static inline bool PageTail(const struct page *page)
{
	return __atomic_load_n(&page->compound_head, __ATOMIC_RELAXED) & 1;
}
static inline struct page *compound_head(const struct page *page)
{
	unsigned long head = __atomic_load_n(&page->compound_head, __ATOMIC_RELAXED);

	return (struct page *)((head & 1) ? head - 1 : (unsigned long)page);
}

/*
 * The state of a page-cache page (locked, dirty, under writeback, on an LRU list, ...) is
 * its folio's: asked of a tail page, these read and change the head's flags (Linux's
 * PF_HEAD policy). The allocator's own flags (PF_ANY here) are each page's.
 *
 * Atomic with respect to interrupts: IO completion changes flags (PG_locked, PG_writeback,
 * PG_uptodate) of pages whose other flags tasks are changing at the same time. A test-and-
 * change is where CPUs meet without a lock: the host's virtual CPUs may change there.
 */
#define PF_HEAD(p) compound_head(p)
#define PF_ANY(p) ((struct page *)(p))
#define PAGEFLAG_FUNCS(uname, lname, policy)                                                       \
	static inline bool Page##uname(const struct page *p)                                       \
	{                                                                                          \
		return __atomic_load_n(&policy(p)->flags, __ATOMIC_RELAXED) & (1UL << PG_##lname); \
	}                                                                                          \
	static inline void SetPage##uname(struct page *p)                                          \
	{                                                                                          \
		__atomic_fetch_or(&policy(p)->flags, 1UL << PG_##lname, __ATOMIC_SEQ_CST);         \
	}                                                                                          \
	static inline void ClearPage##uname(struct page *p)                                        \
	{                                                                                          \
		__atomic_fetch_and(&policy(p)->flags, ~(1UL << PG_##lname), __ATOMIC_SEQ_CST);     \
	}                                                                                          \
	static inline bool TestSetPage##uname(struct page *p)                                      \
	{                                                                                          \
		host_preempt_point(false);                                                         \
		return __atomic_fetch_or(&policy(p)->flags, 1UL << PG_##lname, __ATOMIC_SEQ_CST) & \
		       (1UL << PG_##lname);                                                        \
	}                                                                                          \
	static inline bool TestClearPage##uname(struct page *p)                                    \
	{                                                                                          \
		host_preempt_point(false);                                                         \
		return __atomic_fetch_and(&policy(p)->flags, ~(1UL << PG_##lname),                 \
					  __ATOMIC_SEQ_CST) &                                      \
		       (1UL << PG_##lname);                                                        \
	}                                                                                          \
	static inline bool folio_test_##lname(const struct folio *f)                               \
	{                                                                                          \
		return Page##uname(&f->page);                                                      \
	}                                                                                          \
	static inline void folio_set_##lname(struct folio *f)                                      \
	{                                                                                          \
		SetPage##uname(&f->page);                                                          \
	}                                                                                          \
	static inline void folio_clear_##lname(struct folio *f)                                    \
	{                                                                                          \
		ClearPage##uname(&f->page);                                                        \
	}                                                                                          \
	static inline bool folio_test_set_##lname(struct folio *f)                                 \
	{                                                                                          \
		return TestSetPage##uname(&f->page);                                               \
	}                                                                                          \
	static inline bool folio_test_clear_##lname(struct folio *f)                               \
	{                                                                                          \
		return TestClearPage##uname(&f->page);                                             \
	}

PAGEFLAG_FUNCS(Locked, locked, PF_HEAD)
PAGEFLAG_FUNCS(Referenced, referenced, PF_HEAD)
PAGEFLAG_FUNCS(Uptodate, uptodate, PF_HEAD)
PAGEFLAG_FUNCS(Dirty, dirty, PF_HEAD)
PAGEFLAG_FUNCS(LRU, lru, PF_HEAD)
PAGEFLAG_FUNCS(Active, active, PF_HEAD)
PAGEFLAG_FUNCS(Writeback, writeback, PF_HEAD)
PAGEFLAG_FUNCS(Reclaim, reclaim, PF_HEAD)
PAGEFLAG_FUNCS(Error, error, PF_HEAD)
PAGEFLAG_FUNCS(Reserved, reserved, PF_ANY)
PAGEFLAG_FUNCS(Buddy, buddy, PF_ANY)
PAGEFLAG_FUNCS(Slab, slab, PF_ANY)
PAGEFLAG_FUNCS(Head, head, PF_ANY)
PAGEFLAG_FUNCS(Private, private, PF_HEAD)
PAGEFLAG_FUNCS(MappedToDisk, mappedtodisk, PF_HEAD)
PAGEFLAG_FUNCS(Unevictable, unevictable, PF_HEAD)
PAGEFLAG_FUNCS(LargeKmalloc, large_kmalloc, PF_ANY)

/*
 * The frame table and the direct map (kernel: at PAGE_OFFSET, <cgwb/memlayout.h>; host: an
 * arena). In the kernel virt_to_phys() also takes the image's own addresses (its static
 * data), which sit at __START_KERNEL_map.
 */
extern struct page *mem_map;
extern unsigned long max_pfn;
extern uintptr_t direct_map_offset;
#ifdef CGWB_KERNEL
#include <cgwb/memlayout.h>
#define DIRECT_MAP_BASE PAGE_OFFSET
#else
#define DIRECT_MAP_BASE direct_map_offset
#endif

static inline unsigned long page_to_pfn(const struct page *page)
{
	return (unsigned long)(page - mem_map);
}
static inline struct page *pfn_to_page(unsigned long pfn)
{
	return mem_map + pfn;
}
static inline void *phys_to_virt(phys_addr_t phys)
{
	return (void *)(uintptr_t)(phys + DIRECT_MAP_BASE);
}
static inline phys_addr_t virt_to_phys(const void *virt)
{
#ifdef CGWB_KERNEL
	if ((uintptr_t)virt >= __START_KERNEL_map)
		return (phys_addr_t)((uintptr_t)virt - __START_KERNEL_map);
#endif
	return (phys_addr_t)((uintptr_t)virt - DIRECT_MAP_BASE);
}
static inline void *page_address(const struct page *page)
{
	return phys_to_virt((phys_addr_t)page_to_pfn(page) << PAGE_SHIFT);
}
static inline phys_addr_t page_to_phys(const struct page *page)
{
	return (phys_addr_t)page_to_pfn(page) << PAGE_SHIFT;
}
static inline struct page *virt_to_page(const void *virt)
{
	return pfn_to_page(virt_to_phys(virt) >> PAGE_SHIFT);
}

/**
 * page_alloc_init() - set up the page allocator, with no free memory yet
 * @map: the frame table (mem_map): one struct page per frame, zeroed here
 * @nr_pfns: the frames it covers, [0, max_pfn)
 * @map_offset: the offset of the direct map (virtual = physical + offset)
 *
 * Free ranges are handed over afterwards (page_alloc_add_range()); a frame never handed
 * over has no reference, so freeing it is refused.
 *
 * Context: platform setup, once, before any allocation.
 */
void page_alloc_init(struct page *map, unsigned long nr_pfns, uintptr_t map_offset);
/**
 * page_alloc_add_range() - hand a range of free frames to the allocator
 * @start_pfn: the first frame
 * @end_pfn: the frame past the last one (clamped to max_pfn)
 *
 * The range goes onto the free lists as maximal aligned blocks and counts in
 * totalram_pages.
 *
 * Context: platform setup; takes the zone lock (irq-safe).
 */
void page_alloc_add_range(unsigned long start_pfn, unsigned long end_pfn);
/**
 * page_alloc_set_reserve() - set the emergency reserve
 * @pages: how many free pages only __GFP_HIGH (GFP_ATOMIC) allocations may take
 *
 * Context: platform setup.
 */
void page_alloc_set_reserve(unsigned long pages);

/**
 * alloc_pages() - allocate a block of 2^order contiguous pages
 * @gfp: how: GFP_KERNEL and the other __GFP_DIRECT_RECLAIM masks may sleep and reclaim,
 *       __GFP_HIGH may take the emergency reserve, __GFP_ZERO zeroes the block
 * @order: log2 of the number of pages, at most MAX_ORDER
 *
 * A block of more than one page is a compound page (PageHead, its tail pages pointing
 * at it, its order in the first tail page: compound_order()).
 * An allocation that may block reclaims and retries while reclaim makes progress (with
 * __GFP_NOFAIL, until it succeeds); a failure is logged, rate-limited, unless
 * __GFP_NOWARN.
 *
 * Context: any context with a gfp that does not allow blocking (GFP_ATOMIC, GFP_NOWAIT);
 * process context, may sleep, otherwise.
 * Return: the first page, with one reference, or NULL.
 */
struct page *alloc_pages(gfp_t gfp, unsigned int order);
static inline struct page *alloc_page(gfp_t gfp)
{
	return alloc_pages(gfp, 0);
}
/**
 * __free_pages() - drop a reference on a block of pages
 * @page: the first page of a block from alloc_pages()
 * @order: the order it was allocated with
 *
 * The last reference frees the block. A block freed with another order than it was
 * allocated with, or one without references, is refused and logged.
 *
 * Context: any context; never sleeps.
 */
void __free_pages(struct page *page, unsigned int order);
static inline void __free_page(struct page *page)
{
	__free_pages(page, 0);
}
/**
 * __get_free_pages() - allocate 2^order contiguous pages and map them
 * @gfp: as alloc_pages()'s
 * @order: log2 of the number of pages
 *
 * Context: as alloc_pages().
 * Return: the block's address in the direct map, or NULL.
 */
void *__get_free_pages(gfp_t gfp, unsigned int order);
/**
 * free_pages() - free a block from __get_free_pages()
 * @addr: its address, or NULL (nothing is done)
 * @order: the order it was allocated with
 *
 * Context: any context; never sleeps.
 */
void free_pages(void *addr, unsigned int order);
static inline unsigned int get_order(size_t size)
{
	return size <= PAGE_SIZE ? 0 : (unsigned int)ilog2(roundup_pow_of_two(size) >> PAGE_SHIFT);
}

/*
 * References are the head's: a tail page of a compound page has none of its own (get_page()
 * and put_page() on one act on its head, as Linux's).
 *
 * Atomic: bio completions take and drop references from interrupt context.
 */
static inline void get_page(struct page *page)
{
	page = compound_head(page);
	BUG_ON(__atomic_fetch_add(&page->_refcount, 1, __ATOMIC_RELAXED) <= 0);
}
/*
 * A reference to a page found without the lock that keeps it where it was found (the
 * page cache's lockless lookup): none if it was free. The caller checks that the page
 * is still there, since it may have been freed and reused by another owner meanwhile;
 * a struct page itself is never freed, so the look is always safe.
 */
static inline bool get_page_unless_zero(struct page *page)
{
	page = compound_head(page);
	int count = __atomic_load_n(&page->_refcount, __ATOMIC_RELAXED);

	do {
		if (count <= 0)
			return false;
	} while (!__atomic_compare_exchange_n(&page->_refcount, &count, count + 1, false,
					      __ATOMIC_ACQUIRE, __ATOMIC_RELAXED));
	return true;
}
static inline int page_count(const struct page *page)
{
	return __atomic_load_n(&compound_head(page)->_refcount, __ATOMIC_RELAXED);
}
/**
 * put_page() - drop a reference on a page
 * @page: the page
 *
 * The last reference frees the page (mm/swap.c). A page that was in the page cache
 * leaves its LRU list and its memory cgroup there, at its last reference, wherever that
 * is dropped (truncation, reclaim, a reader, an IO completion).
 *
 * Context: any context, interrupts included; never sleeps.
 */
void put_page(struct page *page);
/* The order of the block page heads: 0 for a single page (and for a tail page). */
static inline unsigned int compound_order(const struct page *page)
{
	return PageHead(page) ? page[1].compound_order : 0;
}
static inline unsigned long compound_nr(const struct page *page)
{
	return 1UL << compound_order(page);
}

/* Folios (struct folio above): what a page belongs to, and the block as a whole. */
static inline struct folio *page_folio(const struct page *page)
{
	return (struct folio *)compound_head(page);
}
/* The n-th page of folio. */
static inline struct page *folio_page(struct folio *folio, unsigned long n)
{
	return &folio->page + n;
}
static inline bool folio_test_large(const struct folio *folio)
{
	return PageHead(&folio->page);
}
static inline unsigned int folio_order(const struct folio *folio)
{
	return compound_order(&folio->page);
}
static inline unsigned long folio_nr_pages(const struct folio *folio)
{
	return 1UL << folio_order(folio);
}
static inline size_t folio_size(const struct folio *folio)
{
	return PAGE_SIZE << folio_order(folio);
}
/* Its place in its file, in bytes, and the index of the page after its last. */
static inline loff_t folio_pos(const struct folio *folio)
{
	return (loff_t)folio->index << PAGE_SHIFT;
}
static inline pgoff_t folio_next_index(const struct folio *folio)
{
	return folio->index + folio_nr_pages(folio);
}
static inline void *folio_address(const struct folio *folio)
{
	return page_address(&folio->page);
}
static inline unsigned long folio_pfn(const struct folio *folio)
{
	return page_to_pfn(&folio->page);
}
static inline void folio_get(struct folio *folio)
{
	get_page(&folio->page);
}
static inline void folio_put(struct folio *folio)
{
	put_page(&folio->page);
}
static inline int folio_ref_count(const struct folio *folio)
{
	return page_count(&folio->page);
}
/* The file offset, in pages, of any page of a page-cache folio (a tail has no ->index). */
static inline pgoff_t page_index(const struct page *page)
{
	const struct page *head = compound_head(page);

	return head->index + (pgoff_t)(page - head);
}
/* A folio of 2^order pages, with one reference; NULL as alloc_pages(). */
static inline struct folio *folio_alloc(gfp_t gfp, unsigned int order)
{
	struct page *page = alloc_pages(gfp, order);

	return page ? page_folio(page) : NULL;
}
/**
 * put_page_testzero() - the allocator's half of put_page(): drop a reference
 * @page: the page
 *
 * For an owner that gives the page back itself (a program's private page, whose owner
 * undoes its accounting first): free_unref_page() once this says the last one went.
 *
 * Context: any context; never sleeps.
 * Return: true if that was the last reference.
 */
bool put_page_testzero(struct page *page);
/**
 * free_unref_page() - give back a block whose last reference is gone
 * @page: the block's first page
 * @order: its order
 *
 * One still in use (in a mapping, on an LRU list, dirty, under writeback, charged) is
 * refused and logged.
 *
 * Context: any context; never sleeps.
 */
void free_unref_page(struct page *page, unsigned int order);

/* Counters. */
/**
 * nr_free_pages() - how many pages are free
 *
 * Context: any context.
 * Return: the free pages, the emergency reserve included.
 */
unsigned long nr_free_pages(void);
extern unsigned long totalram_pages; /* pages handed to the allocator */

/* The part of Linux's struct sysinfo the allocator fills, in pages. */
struct sysinfo {
	unsigned long totalram, freeram;
};

/**
 * si_meminfo() - the memory handed to the allocator and its free part, read together
 * @val: filled with totalram and freeram, in pages
 *
 * Memory scrubbed after boot joins the allocator while programs run; reading the two
 * counters apart can then show more free memory than there is. Both are read under the
 * zone lock here, so freeram never exceeds totalram.
 *
 * Context: any context; never sleeps.
 */
void si_meminfo(struct sysinfo *val);
extern unsigned long totalreserve_pages; /* kept back for atomic allocations */
struct page_alloc_stats {
	unsigned long free_by_order[MAX_ORDER + 1];
	unsigned long alloc_calls, free_calls, failed;
};
void page_alloc_get_stats(struct page_alloc_stats *st);

/*
 * Reclaim: called by a blocking allocation that found too little free memory. Returns the
 * number of pages freed; *coming says that pages are dirty or under writeback (memory on
 * its way back: a small allocation waits for it rather than fail). Set by mm/vmscan.c once
 * the page cache exists, as is page_alloc_show_mem, which logs what memory holds.
 */
extern unsigned long (*page_alloc_reclaim)(gfp_t gfp, unsigned int order, bool *coming);
extern void (*page_alloc_show_mem)(void);

/* Frees refused as invalid (double free, wrong order, ...): each is logged and counted. */
unsigned long page_alloc_bad_pages(void);
/* Consistency check of the free lists (tests): returns 0 or -EUCLEAN with a log line. */
int page_alloc_check(void);

#endif
