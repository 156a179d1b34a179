/*
 * Large folios in the page cache (mm/filemap.c, mm/page-writeback.c, mm/truncate.c,
 * mm/vmscan.c), in the simulator: a folio of 2^order pages is found at each of its indexes,
 * charged, counted dirty, written back and reclaimed whole, tagged once at its first index
 * (a range that begins inside it still finds it), cut by truncation without being split,
 * and moved whole by an inode's wb switch.
 *
 * No filesystem makes large folios yet: the folios here are put in an ext2 file's mapping
 * by the test, whose address_space operations stand in for ext2's while they are there
 * (writepage records what it was given and completes at once).
 */
#include <criterion/criterion.h>
#include <cgwb/fs.h>
#include <cgwb/pagemap.h>
#include <cgwb/backing-dev.h>
#include <cgwb/memcontrol.h>
#include <cgwb/writeback.h>
#include <cgwb/vmscan.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include "host.h"
#include "sim.h"

static const struct sim_config cfg = {
	.mem_mib = 64,
	.disk_mib = 32,
	.disk_bps = 256 * MiB,
	.disk_latency_ns = 20 * NSEC_PER_USEC,
};

struct written {
	pgoff_t index;
	unsigned int order;
};
static struct written written[64];
static unsigned int nr_written;

static int folio_test_writepage(struct page *page, struct writeback_control *wbc)
{
	struct folio *folio = page_folio(page);

	(void)wbc;
	cr_assert_eq(&folio->page, page, "writeback is given the folio's head");
	if (nr_written < ARRAY_SIZE(written))
		written[nr_written++] = (struct written){ folio->index, folio_order(folio) };
	set_page_writeback(page);
	unlock_page(page);
	end_page_writeback(page);
	return 0;
}

static const struct address_space_operations folio_test_aops = {
	.writepage = folio_test_writepage,
};

static struct inode *inode;
static const struct address_space_operations *saved_aops;

static void setup(void)
{
	sim_boot(&cfg);
	sim_mkcg("A");
	sim_mkcg("B");
	cr_assert_eq(sim_write_range("A", "/mnt/f", 0, PAGE_SIZE), (long)PAGE_SIZE);
	inode = sim_inode("/mnt/f");
	/* nothing of A's cached: its "file" below counts the test's folios only */
	ksys_sync();
	truncate_inode_pages(inode->i_mapping, 0);
	drop_pagecache();
	cr_assert_eq(sim_cg_value("A", "memory.stat", "file"), 0);
	saved_aops = inode->i_mapping->a_ops;
	inode->i_mapping->a_ops = &folio_test_aops;
	nr_written = 0;
}

static void teardown(void)
{
	truncate_inode_pages(inode->i_mapping, 0);
	inode->i_mapping->a_ops = saved_aops;
	iput(inode);
	sim_assert_counters("at the end");
	cr_assert(!host_log_contains("WARNING"), "a warning was logged:\n%s", host_log());
	cr_assert(!host_log_contains("Bad page"), "%s", host_log());
	sim_shutdown();
}

TestSuite(sim_folio, .init = setup, .fini = teardown, .timeout = 120);

struct add_args {
	pgoff_t index;
	unsigned int order;
	char fill;
	bool dirty;
	struct folio *folio; /* out: the folio, the test's reference kept */
};

/* In the task's cgroup: a folio put in the cache, filled, uptodate, dirtied if asked. */
static int add_folio_main(void *arg)
{
	struct add_args *a = arg;
	struct folio *folio = folio_alloc(GFP_KERNEL, a->order);

	cr_assert_not_null(folio);
	SetPageLocked(&folio->page);
	cr_assert_eq(filemap_add_folio(inode->i_mapping, folio, a->index, GFP_KERNEL), 0);
	memset(folio_address(folio), a->fill, folio_size(folio));
	folio_set_uptodate(folio);
	if (a->dirty) /* named by one of its tail pages: the folio is what gets dirty */
		cr_assert(set_page_dirty(folio_page(folio, folio_nr_pages(folio) - 1)));
	folio_unlock(folio);
	a->folio = folio;
	return 0;
}

static struct folio *add_folio(const char *cg, pgoff_t index, unsigned int order, char fill,
			       bool dirty)
{
	struct add_args a = { index, order, fill, dirty, NULL };

	cr_assert_eq(sim_run_in(cg, add_folio_main, &a), 0);
	return a.folio;
}

static struct sim_counters counters(void)
{
	struct sim_counters c;

	sim_counters(&c);
	return c;
}

/*
 * Since before: nr more dirty pages in the node and the wbs, all of A's cached pages nr
 * dirty ones, and the counters agreeing; returns the counters.
 */
static struct sim_counters assert_dirty_in_a(const struct sim_counters *before, long nr,
					     const char *when)
{
	struct sim_counters now = counters();

	cr_assert_eq(now.nr_dirty - before->nr_dirty, nr, "%s", when);
	cr_assert_eq(now.wb_reclaimable - before->wb_reclaimable, nr, "%s", when);
	cr_assert_eq(sim_cg_value("A", "memory.stat", "file_dirty"), (u64)nr * PAGE_SIZE);
	cr_assert_eq(sim_cg_value("A", "memory.stat", "file"), (u64)nr * PAGE_SIZE);
	sim_assert_counters(when);
	return now;
}

Test(sim_folio, a_folio_is_found_at_each_index_and_counted_whole)
{
	struct address_space *mapping = inode->i_mapping;
	struct sim_counters before = counters();
	struct folio *folio = add_folio("A", 16, 4, 'x', true);

	cr_assert_eq(mapping->nrpages, 16);
	for (pgoff_t i = 16; i < 32; i++) {
		struct page *page = find_get_page(mapping, i);

		cr_assert_eq(page, folio_page(folio, i - 16), "index %lu", i);
		cr_assert_eq(filemap_get_folio(mapping, i), folio);
		folio_put(folio);
		put_page(page);
	}
	cr_assert_null(find_get_page(mapping, 15));
	cr_assert_null(find_get_page(mapping, 32));
	cr_assert_eq(folio_ref_count(folio), 2, "the cache's and the test's");

	struct sim_counters dirty = assert_dirty_in_a(&before, 16, "dirty");

	/* a second dirtying of any of its pages is no new dirtying */
	cr_assert_not(set_page_dirty(folio_page(folio, 3)));
	cr_assert_eq(counters().nr_dirty, dirty.nr_dirty);

	cr_assert_eq(filemap_write_and_wait(mapping), 0);
	cr_assert_eq(nr_written, 1, "one writepage for the folio");
	cr_assert_eq(written[0].index, 16);
	cr_assert_eq(written[0].order, 4);
	cr_assert_eq(counters().nr_dirty, before.nr_dirty);
	cr_assert_eq(counters().nr_writeback, before.nr_writeback);
	cr_assert_eq(sim_cg_value("A", "memory.stat", "file_dirty"), 0);
	sim_assert_counters("written");

	/* clean and unused but for the cache: reclaim frees all 16 pages at once */
	folio_put(folio);
	drop_pagecache();
	cr_assert_eq(mapping->nrpages, 0);
	cr_assert_eq(sim_cg_value("A", "memory.stat", "file"), 0);
}

/* Integrity writeback of a range that begins inside a folio writes the folio. */
Test(sim_folio, a_range_beginning_inside_a_folio_finds_it)
{
	struct address_space *mapping = inode->i_mapping;
	struct folio *big = add_folio("A", 8, 3, 'a', true);
	struct folio *small = add_folio("A", 20, 0, 'b', true);

	cr_assert_eq(filemap_fdatawrite_range(mapping, 13 * PAGE_SIZE, 13 * PAGE_SIZE), 0);
	cr_assert_eq(nr_written, 1);
	cr_assert_eq(written[0].index, 8);
	cr_assert_eq(written[0].order, 3);
	cr_assert_not(folio_test_dirty(big));
	cr_assert(folio_test_dirty(small));

	cr_assert_eq(filemap_fdatawrite_range(mapping, 9 * PAGE_SIZE, 21 * PAGE_SIZE - 1), 0);
	cr_assert_eq(nr_written, 2, "the clean folio is not written again");
	cr_assert_eq(written[1].index, 20);
	folio_put(big);
	folio_put(small);
}

/*
 * Truncation inside a folio splits it: the pages past the new end go, the rest stay dirty,
 * each counted once, in the wb, the memcg and the node.
 */
Test(sim_folio, truncation_inside_a_folio_splits_it)
{
	struct address_space *mapping = inode->i_mapping;
	struct sim_counters before = counters();
	struct folio *folio = add_folio("A", 8, 3, 'z', true);
	struct page *head = &folio->page;
	loff_t cut = 10 * PAGE_SIZE + 100;

	folio_put(folio); /* the cache's reference only: nothing holds it */
	truncate_inode_pages(mapping, cut);
	cr_assert_eq(mapping->nrpages, 3, "pages 8, 9 and 10 are left");
	for (pgoff_t i = 8; i <= 10; i++) {
		struct page *page = find_get_page(mapping, i);

		cr_assert_eq(page, head + (i - 8), "index %lu", i);
		cr_assert_not(PageHead(page));
		cr_assert_not(PageTail(page));
		cr_assert_eq(page->index, i);
		cr_assert(PageDirty(page));
		cr_assert(PageUptodate(page));
		cr_assert(PageLRU(page));
		put_page(page);
	}
	const char *last = page_address(head + 2);
	for (size_t i = 0; i < PAGE_SIZE; i++)
		cr_assert_eq(last[i], i < 100 ? 'z' : 0, "byte %zu of page 10", i);
	assert_dirty_in_a(&before, 3, "split");

	/* each page is written, and later freed, as a page of its own */
	cr_assert_eq(filemap_write_and_wait(mapping), 0);
	cr_assert_eq(nr_written, 3);
	for (unsigned int i = 0; i < 3; i++) {
		cr_assert_eq(written[i].index, 8 + i);
		cr_assert_eq(written[i].order, 0);
	}
	truncate_inode_pages(mapping, 0);
	cr_assert_eq(sim_cg_value("A", "memory.stat", "file"), 0, "uncharged page by page");
}

/* A folio someone else holds is not split: what is cut reads as zeros, the pages stay. */
Test(sim_folio, truncation_inside_a_held_folio_keeps_it_and_zeroes_the_cut)
{
	struct address_space *mapping = inode->i_mapping;
	struct folio *folio = add_folio("A", 0, 2, 'z', true);
	const char *data = folio_address(folio);
	loff_t cut = 2 * PAGE_SIZE + 100;

	truncate_inode_pages(mapping, cut);
	cr_assert_eq(mapping->nrpages, 4, "not split, not removed");
	cr_assert_eq(folio->mapping, mapping);
	for (size_t i = 0; i < folio_size(folio); i++)
		cr_assert_eq(data[i], i < (size_t)cut ? 'z' : 0, "byte %zu", i);
	cr_assert(folio_test_dirty(folio), "what is left is still to be written");
	sim_assert_counters("cut inside");

	truncate_inode_pages(mapping, 0);
	cr_assert_eq(mapping->nrpages, 0);
	cr_assert_null(folio->mapping);
	cr_assert_eq(sim_cg_value("A", "memory.stat", "file_dirty"), 0);
	folio_put(folio);
	cr_assert_eq(sim_cg_value("A", "memory.stat", "file"), 0, "uncharged whole");
	sim_assert_counters("removed");
}

/* A punched range inside a folio reads as zeros; the pages around it keep their data. */
Test(sim_folio, a_hole_punched_inside_a_folio)
{
	struct folio *folio = add_folio("A", 0, 3, 'p', false);
	const char *data = folio_address(folio);

	truncate_inode_pages_range(inode->i_mapping, 2 * PAGE_SIZE, 5 * PAGE_SIZE - 1);
	cr_assert_eq(inode->i_mapping->nrpages, 8);
	for (size_t i = 0; i < folio_size(folio); i++) {
		bool cut = i >= 2 * PAGE_SIZE && i < 5 * PAGE_SIZE;

		cr_assert_eq(data[i], cut ? 0 : 'p', "byte %zu", i);
	}
	folio_put(folio);
}

static int switched_to(struct inode *i, int memcg_id)
{
	return mem_cgroup_id(wb_memcg(inode_to_wb(i))) == memcg_id;
}

/* The switch of an inode to another group's wb moves all the pages of its dirty folios. */
Test(sim_folio, a_switch_moves_a_large_dirty_folio_whole)
{
	struct folio *folio = add_folio("A", 32, 5, 's', true);
	struct bdi_writeback *old_wb = inode_to_wb(inode);
	s64 old_d = wb_stat_sum(old_wb, WB_RECLAIMABLE);
	int b_id = sim_memcg_id("B");

	cr_assert_geq(old_d, 32);
	/* the flushers may run while the switch is waited for: they wait for the lock */
	folio_lock(folio);
	while (!switched_to(inode, b_id)) {
		inode_switch_wbs(inode, b_id);
		wb_wait_for_switches();
	}
	struct bdi_writeback *new_wb = inode_to_wb(inode);
	cr_assert_neq(new_wb, old_wb);
	cr_assert_eq(wb_stat_sum(old_wb, WB_RECLAIMABLE), old_d - 32);
	cr_assert_eq(wb_stat_sum(new_wb, WB_RECLAIMABLE), 32);
	cr_assert(folio_test_dirty(folio));
	sim_assert_counters("switched");
	folio_unlock(folio);
	cr_assert_eq(filemap_write_and_wait(inode->i_mapping), 0);
	cr_assert_eq(nr_written, 1);
	cr_assert_eq(wb_stat_sum(new_wb, WB_RECLAIMABLE), 0);
	folio_put(folio);
}
