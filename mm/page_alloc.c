/*
 * The physical page allocator: a binary buddy system over one zone of frames, orders 0 to
 * MAX_ORDER. Free blocks are on per-order lists, their head page marked PG_buddy with the
 * order in page->private; freeing merges a block with its buddy while the buddy is free and
 * of the same order. A reserve is kept for atomic (__GFP_HIGH) allocations; blocking
 * allocations that find too little free memory ask reclaim for pages and retry.
 */
#include <cgwb/mm.h>
#include <cgwb/spinlock.h>
#include <cgwb/printk.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/kasan.h>
#include <cgwb/jiffies.h>
#include <cgwb/ratelimit.h>
#include <cgwb/sched.h>

struct free_area {
	struct list_head free_list;
	unsigned long nr_free;
};

struct page *mem_map;
unsigned long max_pfn;
uintptr_t direct_map_offset;
unsigned long totalram_pages;
unsigned long totalreserve_pages;
unsigned long (*page_alloc_reclaim)(gfp_t gfp, unsigned int order, bool *coming);
void (*page_alloc_show_mem)(void);

static struct free_area free_area[MAX_ORDER + 1];
static unsigned long nr_free;
static unsigned long alloc_calls, free_calls, failed_calls;
static DEFINE_SPINLOCK(zone_lock);

#define RECLAIM_RETRIES 16        /* rounds of reclaim that free nothing, then fail */
#define RECLAIM_MAX_ROUNDS 1024   /* in all: a livelock ends with a failure too */
#define PAGE_ALLOC_COSTLY_ORDER 3 /* Linux's: larger blocks may fail sooner */

void page_alloc_init(struct page *map, unsigned long nr_pfns, uintptr_t map_offset)
{
	mem_map = map;
	max_pfn = nr_pfns;
	direct_map_offset = map_offset;
	/* all zero: frames never handed over have no references, so freeing one is refused */
	memset(map, 0, nr_pfns * sizeof(struct page));
	for (int o = 0; o <= MAX_ORDER; o++) {
		INIT_LIST_HEAD(&free_area[o].free_list);
		free_area[o].nr_free = 0;
	}
	nr_free = totalram_pages = totalreserve_pages = 0;
	alloc_calls = free_calls = failed_calls = 0;
}

void page_alloc_set_reserve(unsigned long pages)
{
	totalreserve_pages = pages;
}

static void add_to_free_area(struct page *page, unsigned int order)
{
	SetPageBuddy(page);
	page->private = order;
	list_add(&page->lru, &free_area[order].free_list);
	free_area[order].nr_free++;
	nr_free += 1UL << order;
}

static void del_from_free_area(struct page *page, unsigned int order)
{
	list_del_init(&page->lru);
	ClearPageBuddy(page);
	page->private = 0;
	free_area[order].nr_free--;
	nr_free -= 1UL << order;
}

/* Hand [start, end) to the allocator as maximal aligned blocks: no per-page merging at boot. */
void page_alloc_add_range(unsigned long start, unsigned long end)
{
	unsigned long flags;

	if (end > max_pfn)
		end = max_pfn;
	spin_lock_irqsave(&zone_lock, flags);
	while (start < end) {
		unsigned int order = MAX_ORDER;
		while (order && ((start & ((1UL << order) - 1)) || start + (1UL << order) > end))
			order--;
		add_to_free_area(pfn_to_page(start), order);
		kasan_poison(page_address(pfn_to_page(start)), PAGE_SIZE << order);
		totalram_pages += 1UL << order;
		start += 1UL << order;
	}
	spin_unlock_irqrestore(&zone_lock, flags);
}

static struct page *rmqueue(unsigned int order)
{
	for (unsigned int o = order; o <= MAX_ORDER; o++) {
		if (list_empty(&free_area[o].free_list))
			continue;
		struct page *page = list_first_entry(&free_area[o].free_list, struct page, lru);
		del_from_free_area(page, o);
		/* split: give back the upper halves until the block has the order asked for */
		while (o > order) {
			o--;
			add_to_free_area(page + (1UL << o), o);
		}
		return page;
	}
	return NULL;
}

static struct page *try_alloc(gfp_t gfp, unsigned int order)
{
	unsigned long flags;
	struct page *page = NULL;
	unsigned long need = 1UL << order;

	spin_lock_irqsave(&zone_lock, flags);
	alloc_calls++;
	if ((gfp & __GFP_HIGH) || nr_free >= need + totalreserve_pages)
		page = rmqueue(order);
	spin_unlock_irqrestore(&zone_lock, flags);
	return page;
}

/*
 * Another round of reclaim, as Linux's should_reclaim_retry(): a round that freed pages
 * starts the count again; one that freed none counts, unless the block is small and pages
 * are dirty or under writeback (memory is on its way back, and reclaim waited for some of
 * it: under a group held by io.max that takes time, and failing meanwhile failed commits
 * and aborted journals). RECLAIM_RETRIES such rounds end the attempt, as RECLAIM_MAX_ROUNDS
 * in all do (a livelock, or writeback that never ends). __GFP_NOFAIL never gives up, as
 * Linux's, for the allocations that cannot fail (buffers of the journal and metadata).
 */
static bool should_reclaim_retry(gfp_t gfp, unsigned int order, unsigned long freed, bool coming,
				 int *no_progress, int rounds)
{
	if (gfp & __GFP_NOFAIL)
		return true;
	if (rounds > RECLAIM_MAX_ROUNDS)
		return false;
	if (freed) {
		*no_progress = 0;
		return true;
	}
	if (order <= PAGE_ALLOC_COSTLY_ORDER && coming)
		return true;
	return ++*no_progress <= RECLAIM_RETRIES;
}

/* As Linux's warn_alloc(): the failure and what memory holds, 10 per 5 s at most. */
static void warn_alloc(gfp_t gfp, unsigned int order)
{
	static DEFINE_RATELIMIT_STATE(nopage_rs, DEFAULT_RATELIMIT_INTERVAL, DEFAULT_RATELIMIT_BURST);

	if ((gfp & __GFP_NOWARN) || !__ratelimit(&nopage_rs))
		return;
	pr_warn("%s: page allocation failure: order %u, gfp %#x, %lu pages free\n",
		current ? current->comm : "-", order, gfp, nr_free);
	if (page_alloc_show_mem)
		page_alloc_show_mem();
}

static void bad_page(struct page *page, const char *reason);

/* A block of 2^order pages becomes a compound page: its tail pages point at its head. */
static void prep_compound_page(struct page *head, unsigned int order)
{
	unsigned long nr = 1UL << order;

	SetPageHead(head);
	for (unsigned long i = 1; i < nr; i++) {
		head[i].compound_head = (unsigned long)head | 1;
		head[i].compound_order = 0;
	}
	head[1].compound_order = (unsigned char)order;
}

/*
 * Undo it on the way back to the free lists, each tail checked (Linux's
 * free_tail_pages_check()): one that is no longer the head's means the frame table was
 * overwritten. A tail's flags are never set (its head's are), so they must be clear.
 */
static bool free_tail_pages(struct page *head, unsigned int order)
{
	bool ok = true;

	for (unsigned long i = 1; i < (1UL << order); i++) {
		struct page *tail = head + i;

		if (tail->compound_head != ((unsigned long)head | 1) || tail->flags ||
		    tail->_refcount || (i > 1 && tail->compound_order)) {
			bad_page(tail, "corrupt tail page of a compound page");
			ok = false;
		}
		tail->compound_head = 0;
		tail->compound_order = 0;
	}
	return ok;
}

struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	struct page *page;
	int no_progress = 0, rounds = 0;

	if (WARN_ON_ONCE(order > MAX_ORDER))
		return NULL;
	/* as Linux: a block of more than two pages that must not fail is a request to rethink */
	WARN_ON_ONCE((gfp & __GFP_NOFAIL) && order > 1);
	while (!(page = try_alloc(gfp, order))) {
		unsigned long freed;

		if (!gfpflags_allow_blocking(gfp))
			break;
		/*
		 * Pages a round freed can be taken by other tasks before this one looks again:
		 * only rounds that free nothing count against the retries.
		 */
		bool coming = false;

		freed = page_alloc_reclaim ? page_alloc_reclaim(gfp, order, &coming) : 0;
		if (!should_reclaim_retry(gfp, order, freed, coming, &no_progress, ++rounds))
			break;
		if (!freed) /* Linux's VMSCAN_THROTTLE_NOPROGRESS: let others free something */
			schedule_timeout_uninterruptible(1);
	}
	if (!page) {
		__atomic_fetch_add(&failed_calls, 1, __ATOMIC_RELAXED); /* no lock held here */
		warn_alloc(gfp, order);
		return NULL;
	}
	kasan_unpoison(page_address(page), PAGE_SIZE << order);
	page->flags = 0;
	page->_refcount = 1;
	page->mapping = NULL;
	page->index = 0;
	page->private = 0;
	page->memcg = NULL;
	if (order)
		prep_compound_page(page, order);
	if (gfp & __GFP_ZERO)
		memset(page_address(page), 0, PAGE_SIZE << order);
	return page;
}

static unsigned long bad_page_count;

static void bad_page(struct page *page, const char *reason)
{
	bad_page_count++;
	pr_err("BUG: Bad page state: pfn %#lx flags %#lx count %d: %s\n", page_to_pfn(page),
	       page->flags, page->_refcount, reason);
	WARN_ON(1);
}

unsigned long page_alloc_bad_pages(void)
{
	return bad_page_count;
}

static void free_one_block(struct page *page, unsigned int order)
{
	unsigned long pfn = page_to_pfn(page);
	unsigned long flags;

	page->flags = 0;
	page->private = 0;
	kasan_poison(page_address(page), PAGE_SIZE << order);
	spin_lock_irqsave(&zone_lock, flags);
	free_calls++;
	while (order < MAX_ORDER) {
		unsigned long buddy_pfn = pfn ^ (1UL << order);
		struct page *buddy = pfn_to_page(buddy_pfn);

		if (buddy_pfn >= max_pfn || !PageBuddy(buddy) || buddy->private != order)
			break;
		del_from_free_area(buddy, order);
		pfn &= ~(1UL << order);
		order++;
	}
	add_to_free_area(pfn_to_page(pfn), order);
	spin_unlock_irqrestore(&zone_lock, flags);
}

/* A reference to drop: refused (logged, counted) if the page is not one of ours to drop. */
static bool page_ref_valid(struct page *page)
{
	if (page_to_pfn(page) >= max_pfn) {
		bad_page(page, "not a frame of this machine");
		return false;
	}
	if (PageBuddy(page) || page_count(page) <= 0) {
		bad_page(page, "double free");
		return false;
	}
	return true;
}

bool put_page_testzero(struct page *page)
{
	page = compound_head(page);
	return page_ref_valid(page) && !__atomic_sub_fetch(&page->_refcount, 1, __ATOMIC_ACQ_REL);
}

void free_unref_page(struct page *page, unsigned int order)
{
	if (page->mapping || PageLRU(page) || PageDirty(page) || PageWriteback(page) ||
	    PageSlab(page) || page->memcg) {
		bad_page(page, "freeing a page still in use");
		return;
	}
	if (order != compound_order(page) || PageTail(page)) {
		bad_page(page, "freed with a different order than allocated");
		return;
	}
	if (order && !free_tail_pages(page, order))
		return; /* leaked: the block is not what it was */
	free_one_block(page, order);
}

void __free_pages(struct page *page, unsigned int order)
{
	if (!page_ref_valid(page))
		return;
	if (PageTail(page) || order != compound_order(page)) {
		bad_page(page, "freed with a different order than allocated");
		return;
	}
	if (put_page_testzero(page))
		free_unref_page(page, order);
}

void *__get_free_pages(gfp_t gfp, unsigned int order)
{
	struct page *page = alloc_pages(gfp, order);
	return page ? page_address(page) : NULL;
}

void free_pages(void *addr, unsigned int order)
{
	if (addr)
		__free_pages(virt_to_page(addr), order);
}

unsigned long nr_free_pages(void)
{
	return READ_ONCE(nr_free);
}

void si_meminfo(struct sysinfo *val)
{
	unsigned long flags;

	spin_lock_irqsave(&zone_lock, flags);
	val->totalram = totalram_pages;
	val->freeram = nr_free;
	spin_unlock_irqrestore(&zone_lock, flags);
}

void page_alloc_get_stats(struct page_alloc_stats *st)
{
	unsigned long flags;

	spin_lock_irqsave(&zone_lock, flags);
	for (int o = 0; o <= MAX_ORDER; o++)
		st->free_by_order[o] = free_area[o].nr_free;
	st->alloc_calls = alloc_calls;
	st->free_calls = free_calls;
	st->failed = failed_calls;
	spin_unlock_irqrestore(&zone_lock, flags);
}

int page_alloc_check(void)
{
	unsigned long flags, counted = 0;
	int err = 0;

	spin_lock_irqsave(&zone_lock, flags);
	for (unsigned int o = 0; o <= MAX_ORDER; o++) {
		struct page *page;
		unsigned long n = 0;

		list_for_each_entry(page, &free_area[o].free_list, lru) {
			unsigned long pfn = page_to_pfn(page);
			if (!PageBuddy(page) || page->private != o || (pfn & ((1UL << o) - 1))) {
				pr_err("page_alloc: bad free block pfn %#lx order %u\n", pfn, o);
				err = -EUCLEAN;
			}
			n++;
		}
		if (n != free_area[o].nr_free) {
			pr_err("page_alloc: order %u lists %lu blocks, counted %lu\n", o, n,
			       free_area[o].nr_free);
			err = -EUCLEAN;
		}
		counted += n << o;
	}
	if (counted != nr_free) {
		pr_err("page_alloc: free lists hold %lu pages, counter says %lu\n", counted, nr_free);
		err = -EUCLEAN;
	}
	spin_unlock_irqrestore(&zone_lock, flags);
	return err;
}
