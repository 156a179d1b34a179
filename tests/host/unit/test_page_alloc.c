/*
 * The buddy allocator (mm/page_alloc.c) on a 16 MiB arena: splitting and merging, every
 * order, exhaustion and the reserve, fragmentation, and refused frees. Nothing here sleeps,
 * so no other task runs and the free lists change only by what the test does.
 */
#include <stdlib.h>
#include <criterion/criterion.h>
#include <cgwb/mm.h>
#include <cgwb/bug.h>
#include <cgwb/sched.h>
#include <cgwb/errno.h>
#include "host.h"

#ifdef __SANITIZE_ADDRESS__
#include <sanitizer/asan_interface.h>
#endif

#define ARENA (16u << 20)
#define NOWARN (GFP_KERNEL | __GFP_NOWARN)

static struct page_alloc_stats initial;
static struct page **pages; /* libc memory: the arena is what is being tested */
static unsigned long nr_pages;

static void setup(void)
{
	host_platform_init(ARENA);
	page_alloc_get_stats(&initial);
	pages = calloc(ARENA >> PAGE_SHIFT, sizeof(*pages));
	cr_assert_not_null(pages);
}

static void teardown(void)
{
	free(pages);
	host_platform_exit();
}

TestSuite(page_alloc, .init = setup, .fini = teardown);

static void assert_free_lists_as_at_start(void)
{
	struct page_alloc_stats now;

	cr_assert_eq(page_alloc_check(), 0, "free lists inconsistent:\n%s", host_log());
	page_alloc_get_stats(&now);
	for (int o = 0; o <= MAX_ORDER; o++)
		cr_assert_eq(now.free_by_order[o], initial.free_by_order[o],
			     "order %d: %lu free blocks, %lu at the start", o, now.free_by_order[o],
			     initial.free_by_order[o]);
}

static unsigned long free_pages_counted(const struct page_alloc_stats *st)
{
	unsigned long n = 0;

	for (int o = 0; o <= MAX_ORDER; o++)
		n += st->free_by_order[o] << o;
	return n;
}

/* Take every order-0 page gfp allows; returns how many. */
static unsigned long grab_all(gfp_t gfp)
{
	unsigned long n = 0;
	struct page *p;

	while ((p = alloc_page(gfp | __GFP_NOWARN)))
		pages[nr_pages++] = p, n++;
	return n;
}

static void free_all_grabbed(void)
{
	while (nr_pages)
		__free_page(pages[--nr_pages]);
}

Test(page_alloc, initial_state_is_consistent)
{
	cr_assert_eq(page_alloc_check(), 0);
	cr_assert_eq(free_pages_counted(&initial), nr_free_pages());
	cr_assert_eq(totalram_pages, (ARENA >> PAGE_SHIFT) - 1, "every frame but pfn 0");
	cr_assert_eq(totalreserve_pages, 64);
	cr_assert_gt(initial.free_by_order[MAX_ORDER], 0);
}

Test(page_alloc, split_then_merge_restores_the_free_lists)
{
	struct page_alloc_stats before, after;
	int split_order = -1;

	/* use up the order-0 blocks: the next order-0 allocation must split a bigger block */
	while (page_alloc_get_stats(&before), before.free_by_order[0])
		pages[nr_pages++] = alloc_page(GFP_KERNEL);
	pages[nr_pages++] = alloc_page(GFP_KERNEL);
	page_alloc_get_stats(&after);
	for (int o = 1; o <= MAX_ORDER && split_order < 0; o++)
		if (before.free_by_order[o])
			split_order = o;
	cr_assert_gt(split_order, 0);
	/* one block of order k became one free block of each order below k, plus our page */
	cr_assert_eq(after.free_by_order[split_order], before.free_by_order[split_order] - 1);
	for (int o = 0; o < split_order; o++)
		cr_assert_eq(after.free_by_order[o], before.free_by_order[o] + 1, "order %d", o);
	cr_assert_eq(page_alloc_check(), 0);

	free_all_grabbed();
	assert_free_lists_as_at_start();
	cr_assert_eq(page_alloc_bad_pages(), 0);
}

Test(page_alloc, every_order_up_to_max_order)
{
	for (unsigned int o = 0; o <= MAX_ORDER; o++) {
		struct page *p = alloc_pages(GFP_KERNEL, o);
		unsigned long pfn;

		cr_assert_not_null(p, "order %u", o);
		pfn = page_to_pfn(p);
		cr_assert_eq(pfn & ((1UL << o) - 1), 0, "order %u block at pfn %#lx", o, pfn);
		cr_assert_neq(pfn, 0);
		cr_assert_eq(page_count(p), 1);
		cr_assert_eq(PageHead(p), o > 0);
		cr_assert_eq(compound_order(p), o);
		cr_assert_eq(p->private, 0, "the head's private is its owner's");
		memset(page_address(p), 0x5a, PAGE_SIZE << o); /* all of it is ours */
		cr_assert_eq(virt_to_page(page_address(p)), p);
		__free_pages(p, o);
		assert_free_lists_as_at_start();
	}
	cr_assert_eq(warn_count, 0);
	cr_assert_null(alloc_pages(NOWARN, MAX_ORDER + 1));
	cr_assert_eq(warn_count, 1, "an impossible order is a caller bug: warned");
}

Test(page_alloc, exhaustion_fails_cleanly_and_the_reserve_is_kept_for_atomic)
{
	struct page_alloc_stats st;
	unsigned long failed_before = initial.failed;

	grab_all(GFP_KERNEL);
	cr_assert_eq(nr_free_pages(), totalreserve_pages, "blocking allocations left the reserve");
	cr_assert_null(alloc_page(GFP_KERNEL)); /* without NOWARN: says so in the log */
	cr_assert(host_log_contains("page allocation failure: order 0"));
	cr_assert_null(alloc_pages(NOWARN, 3));
	page_alloc_get_stats(&st);
	cr_assert_gt(st.failed, failed_before);

	/* atomic allocations may use the reserve, all of it */
	cr_assert_eq(grab_all(GFP_ATOMIC), totalreserve_pages);
	cr_assert_eq(nr_free_pages(), 0);
	cr_assert_null(alloc_page(GFP_ATOMIC | __GFP_NOWARN));

	/* one page back: still inside the reserve for GFP_KERNEL, fine for GFP_ATOMIC */
	__free_page(pages[--nr_pages]);
	cr_assert_null(alloc_page(NOWARN));
	pages[nr_pages] = alloc_page(GFP_ATOMIC);
	cr_assert_not_null(pages[nr_pages]);
	nr_pages++;

	free_all_grabbed();
	assert_free_lists_as_at_start();
	cr_assert_not_null(pages[0] = alloc_page(GFP_KERNEL), "works again after freeing");
	__free_page(pages[0]);
	cr_assert_eq(page_alloc_bad_pages(), 0);
}

static int by_pfn(const void *a, const void *b)
{
	unsigned long x = page_to_pfn(*(struct page *const *)a);
	unsigned long y = page_to_pfn(*(struct page *const *)b);

	return x < y ? -1 : x > y;
}

Test(page_alloc, every_other_page_free_is_no_order1_block)
{
	unsigned long total = grab_all(GFP_ATOMIC), freed = 0, kept = 0;
	struct page_alloc_stats st;

	cr_assert_eq(nr_free_pages(), 0);
	qsort(pages, nr_pages, sizeof(*pages), by_pfn);
	/* free the even frames: no two free pages are buddies, nothing can merge */
	for (unsigned long i = 0; i < nr_pages; i++) {
		if (page_to_pfn(pages[i]) % 2 == 0) {
			__free_page(pages[i]);
			freed++;
		} else {
			pages[kept++] = pages[i];
		}
	}
	nr_pages = kept;
	cr_assert_eq(freed + kept, total);
	cr_assert_gt(freed, 2000, "about half of the 4095 pages");
	cr_assert_eq(nr_free_pages(), freed);
	page_alloc_get_stats(&st);
	cr_assert_eq(st.free_by_order[0], freed);
	for (int o = 1; o <= MAX_ORDER; o++)
		cr_assert_eq(st.free_by_order[o], 0, "order %d", o);
	cr_assert_null(alloc_pages(GFP_ATOMIC | __GFP_NOWARN, 1), "half of memory is free but no "
								  "two pages are adjacent");
	cr_assert_eq(page_alloc_check(), 0);

	free_all_grabbed();
	assert_free_lists_as_at_start();
	struct page *p = alloc_pages(GFP_KERNEL, MAX_ORDER);
	cr_assert_not_null(p, "everything merged back");
	__free_pages(p, MAX_ORDER);
}

Test(page_alloc, double_free_is_refused_and_the_allocator_stays_consistent)
{
	struct page *a = alloc_page(GFP_KERNEL), *b = alloc_page(GFP_KERNEL);
	unsigned long free_before;

	__free_page(a);
	free_before = nr_free_pages();
	__free_page(a);
	cr_assert_eq(page_alloc_bad_pages(), 1);
	cr_assert(host_log_contains("double free"));
	cr_assert_eq(nr_free_pages(), free_before);
	cr_assert_eq(page_alloc_check(), 0);

	/* whether or not it merged with its buddy, a freed page has no reference left */
	__free_page(b);
	__free_page(b);
	cr_assert_eq(page_alloc_bad_pages(), 2);
	assert_free_lists_as_at_start();
	cr_assert_eq(warn_count, 2);
}

Test(page_alloc, free_with_the_wrong_order_is_refused)
{
	struct page *big = alloc_pages(GFP_KERNEL, 2), *small = alloc_page(GFP_KERNEL);
	unsigned long free_before = nr_free_pages();

	__free_pages(big, 1);
	__free_pages(small, 1);
	__free_pages(big, 0);
	cr_assert_eq(page_alloc_bad_pages(), 3);
	cr_assert_eq(host_log_count("freed with a different order"), 3);
	cr_assert_eq(nr_free_pages(), free_before, "a refused free frees nothing");
	cr_assert_eq(page_count(big), 1);

	__free_pages(big, 2);
	__free_page(small);
	assert_free_lists_as_at_start();
}

Test(page_alloc, gfp_zero_zeroes_reused_memory)
{
	struct page *p = alloc_pages(GFP_KERNEL, 3), *q;
	unsigned long pfn = page_to_pfn(p);
	unsigned char *mem;

	memset(page_address(p), 0xab, PAGE_SIZE << 3);
	__free_pages(p, 3);
	/* the same block comes back: the allocator is deterministic (LIFO free lists) */
	q = alloc_pages(GFP_KERNEL | __GFP_ZERO, 3);
	cr_assert_eq(page_to_pfn(q), pfn);
	mem = page_address(q);
	for (size_t i = 0; i < PAGE_SIZE << 3; i++)
		cr_assert_eq(mem[i], 0, "byte %zu not zeroed", i);
	__free_pages(q, 3);
}

Test(page_alloc, refcount_frees_on_the_last_put)
{
	struct page *p = alloc_page(GFP_KERNEL), *c = alloc_pages(GFP_KERNEL, 2);
	unsigned long free_before = nr_free_pages();

	cr_assert_eq(page_count(p), 1);
	get_page(p);
	get_page(p);
	cr_assert_eq(page_count(p), 3);
	put_page(p);
	put_page(p);
	cr_assert_eq(nr_free_pages(), free_before, "still referenced");
	put_page(p);
	cr_assert_eq(nr_free_pages(), free_before + 1);

	get_page(c);
	put_page(c);
	cr_assert_eq(nr_free_pages(), free_before + 1);
	put_page(c); /* a compound page goes back whole */
	cr_assert_eq(nr_free_pages(), free_before + 5);
	assert_free_lists_as_at_start();
	cr_assert_eq(page_alloc_bad_pages(), 0);
}

/* The head stands for the block: a tail page's flags, references and folio are its head's. */
Test(page_alloc, a_compound_page_is_one_folio)
{
	struct page *head = alloc_pages(GFP_KERNEL, 4);
	struct folio *folio;
	unsigned long free_before = nr_free_pages();

	cr_assert_not_null(head);
	folio = page_folio(head);
	cr_assert_eq(&folio->page, head);
	cr_assert(folio_test_large(folio));
	cr_assert_eq(folio_order(folio), 4);
	cr_assert_eq(folio_nr_pages(folio), 16);
	cr_assert_eq(folio_size(folio), 16 * PAGE_SIZE);
	for (unsigned long i = 1; i < 16; i++) {
		struct page *tail = folio_page(folio, i);

		cr_assert(PageTail(tail), "page %lu", i);
		cr_assert_not(PageHead(tail));
		cr_assert_eq(compound_head(tail), head);
		cr_assert_eq(page_folio(tail), folio);
		cr_assert_eq(compound_order(tail), 0, "a tail page heads nothing");
	}
	cr_assert_not(PageTail(head));

	SetPageDirty(folio_page(folio, 7)); /* state asked of a tail page is the folio's */
	cr_assert(folio_test_dirty(folio));
	cr_assert(PageDirty(folio_page(folio, 3)));
	cr_assert_eq(folio_page(folio, 7)->flags, 0, "the tail's own flags stay clear");
	cr_assert(folio_test_clear_dirty(folio));
	cr_assert_not(PageDirty(folio_page(folio, 7)));

	get_page(folio_page(folio, 9));
	cr_assert_eq(folio_ref_count(folio), 2);
	cr_assert_eq(page_count(folio_page(folio, 1)), 2);
	put_page(folio_page(folio, 15));
	cr_assert_eq(folio_ref_count(folio), 1);
	folio_put(folio);
	cr_assert_eq(nr_free_pages(), free_before + 16);
	assert_free_lists_as_at_start();
	cr_assert_eq(page_alloc_bad_pages(), 0);

	/* the same frames as single pages again: no tail is left pointing at the old head */
	for (unsigned int i = 0; i < 16; i++) {
		struct page *p = alloc_page(GFP_KERNEL);

		cr_assert_not(PageTail(p));
		cr_assert_eq(page_folio(p), (struct folio *)p);
		cr_assert_not(folio_test_large(page_folio(p)));
		cr_assert_eq(folio_nr_pages(page_folio(p)), 1);
		pages[nr_pages++] = p;
	}
	free_all_grabbed();
	assert_free_lists_as_at_start();
}

/* A frame table overwritten under a compound page is caught when it is freed. */
Test(page_alloc, a_corrupt_tail_page_is_refused)
{
	struct page *head = alloc_pages(NOWARN, 2);

	cr_assert_not_null(head);
	head[2].compound_head = 0;
	__free_pages(head, 2);
	cr_assert_eq(page_alloc_bad_pages(), 1);
	cr_assert_eq(page_alloc_check(), 0, "what was refused is not on the free lists");
}

Test(page_alloc, free_pages_by_address)
{
	void *addr = __get_free_pages(GFP_KERNEL, 1);

	cr_assert_not_null(addr);
	cr_assert(IS_ALIGNED((uintptr_t)addr, 2 * PAGE_SIZE));
	cr_assert_neq(virt_to_phys(addr), 0);
	cr_assert_eq(page_address(virt_to_page(addr)), addr);
	free_pages(addr, 1);
	free_pages(NULL, 0);
	assert_free_lists_as_at_start();
}

#ifdef __SANITIZE_ADDRESS__
Test(page_alloc, free_pages_are_poisoned_for_asan)
{
	struct page *p = alloc_pages(GFP_KERNEL, 1);
	char *mem = page_address(p);

	cr_assert_not(__asan_region_is_poisoned(mem, 2 * PAGE_SIZE));
	__free_pages(p, 1);
	cr_assert(__asan_address_is_poisoned(mem));
	cr_assert(__asan_address_is_poisoned(mem + 2 * PAGE_SIZE - 1));
}
#endif

static struct page *nofail_page;
static bool nofail_go;

/* Started before memory runs out (a task needs memory of its own), it asks once it has. */
static int nofail_main(void *arg)
{
	(void)arg;
	while (!READ_ONCE(nofail_go))
		msleep(1);
	nofail_page = alloc_page(GFP_KERNEL | __GFP_NOFAIL);
	return 0;
}

/* __GFP_NOFAIL (the journal's and metadata's buffers) waits for memory, never fails. */
Test(page_alloc, nofail_waits_for_memory_instead_of_failing)
{
	struct task_struct *t = kthread_run(nofail_main, NULL, "nofail");

	cr_assert(!IS_ERR_OR_NULL(t));
	grab_all(GFP_KERNEL);
	WRITE_ONCE(nofail_go, true);
	host_run_for(2 * NSEC_PER_SEC);
	cr_assert_null(nofail_page, "it came back with a page from nowhere");
	cr_assert(!host_log_contains("page allocation failure"), "it failed: %s", host_log());
	__free_page(pages[--nr_pages]);
	cr_assert_eq(kthread_join(t), 0);
	cr_assert_not_null(nofail_page, "__GFP_NOFAIL returned NULL");
	__free_page(nofail_page);
	while (nr_pages)
		__free_page(pages[--nr_pages]);
	assert_free_lists_as_at_start();
}
