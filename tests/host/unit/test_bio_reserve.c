/*
 * The bio reserve (drivers/block/bio.c): with memory exhausted, a bio allocation that may
 * sleep still gets a bio, from the reserve, with all the vectors it asked for; bio_put gives
 * it back; and an atomic allocation fails cleanly instead.
 */
#include <stdlib.h>
#include <criterion/criterion.h>
#include <cgwb/mm.h>
#include <cgwb/bio.h>
#include <cgwb/blkdev.h>
#include "host.h"

#define ARENA (16u << 20)

static struct page **pages; /* libc memory: the arena is what gets exhausted */
static unsigned long nr_pages;

static void setup(void)
{
	host_platform_init(ARENA);
	pages = calloc(ARENA >> PAGE_SHIFT, sizeof(*pages));
	cr_assert_not_null(pages);
	bio_put(bio_alloc(NULL, 1, REQ_OP_READ, GFP_KERNEL)); /* the reserve is made at first use */
}

static void teardown(void)
{
	while (nr_pages)
		__free_page(pages[--nr_pages]);
	free(pages);
	host_platform_exit();
}

TestSuite(bio_reserve, .init = setup, .fini = teardown);

/* Take every free page, reserve included; reclaim has nothing to free here. */
static void exhaust_memory(void)
{
	struct page *page;

	while ((page = alloc_page(GFP_ATOMIC | __GFP_NOWARN)))
		pages[nr_pages++] = page;
	cr_assert_null(alloc_page(GFP_NOIO | __GFP_NOWARN));
}

Test(bio_reserve, a_sleeping_allocation_gets_a_reserve_bio_when_memory_is_gone)
{
	struct bio *bios[64];
	int n = 0, reserved = 0;

	exhaust_memory();
	/* the bio cache may still hold free objects: allocate until it is dry too */
	while (n < 64) {
		struct bio *bio = bio_alloc(NULL, BIO_MAX_VECS, REQ_OP_WRITE, GFP_NOIO);

		cr_assert_not_null(bio, "a writeback bio allocation failed");
		cr_assert_geq(bio->bi_max_vecs, BIO_MAX_VECS);
		bios[n++] = bio;
		if (bio->bi_flags & BIO_RESERVED && ++reserved == 4)
			break;
	}
	cr_assert_eq(reserved, 4, "no bio came from the reserve");
	/* vectors for 256 pages cannot come from exhausted memory: only the reserve has them */
	cr_assert_null(bio_alloc(NULL, BIO_MAX_VECS, REQ_OP_WRITE, GFP_ATOMIC | __GFP_NOWARN),
		       "an atomic allocation cannot use the reserve, which may wait");
	while (n)
		bio_put(bios[--n]);
	/* given back: the reserve serves the next ones again */
	struct bio *again = bio_alloc(NULL, BIO_MAX_VECS, REQ_OP_WRITE, GFP_NOIO);
	cr_assert_not_null(again);
	cr_assert(again->bi_flags & BIO_RESERVED);
	bio_put(again);
}
