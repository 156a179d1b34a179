/*
 * Large folios on two virtual CPUs (host_smp_start()), each scenario under many seeds.
 *
 * Truncation splits a folio (split_folio()) while a reader on the other CPU looks its
 * pages up without the mapping's lock, as read() does. Every page the reader gets a
 * reference on must be whole for whoever holds one: on its LRU list if it says so, since
 * mark_page_accessed() moves a referenced page to the active list. A page published in
 * the cache before it is linked on the list its PG_lru names has no links yet, and the
 * move writes through a NULL pointer.
 */
#include <criterion/criterion.h>
#include <cgwb/fs.h>
#include <cgwb/pagemap.h>
#include <cgwb/vmscan.h>
#include <cgwb/sched.h>
#include <cgwb/bug.h>
#include "host.h"
#include "sim.h"

#define NR_SEEDS 200
#define FOLIO_PAGES 16
#define CUT_PAGES 8

static const struct sim_config cfg = {
	.mem_mib = 64,
	.disk_mib = 32,
	.disk_bps = 256 * MiB,
	.disk_latency_ns = 20 * NSEC_PER_USEC,
};

static struct address_space *mapping;

/*
 * Until it finds a page of its own at index 1 (the split done), the reader only looks; then
 * it marks that page accessed, as read() marks each folio it copies from. The folio was
 * marked once before the split, so the page is referenced and inactive: the mark moves it.
 */
static int reader(void *unused)
{
	for (;;) {
		struct page *page = find_get_page(mapping, 1);
		bool own;

		BUG_ON(!page);
		own = !PageTail(page);
		if (own)
			mark_page_accessed(page);
		put_page(page);
		if (own)
			return 0;
		cpu_relax();
	}
}

/* The reader's reference keeps the folio whole (split_folio() fails): cut again until split. */
static int truncator(void *unused)
{
	while (mapping->nrpages != CUT_PAGES) {
		truncate_inode_pages(mapping, CUT_PAGES * PAGE_SIZE);
		yield();
	}
	return 0;
}

static void split_race(u64 seed)
{
	struct task_struct *r, *t;
	struct inode *inode;
	struct page *page;

	sim_boot(&cfg);
	sim_mkcg("A");
	BUG_ON(sim_write_range("A", "/mnt/f", 0, FOLIO_PAGES * PAGE_SIZE) !=
	       (long)(FOLIO_PAGES * PAGE_SIZE));
	ksys_sync(); /* clean, no writeback: nothing keeps truncation from splitting it */
	inode = sim_inode("/mnt/f");
	mapping = inode->i_mapping;
	page = find_get_page(mapping, 0);
	BUG_ON(!page || compound_nr(page) != FOLIO_PAGES || !PageLRU(page) || PageActive(page));
	mark_page_accessed(page);
	put_page(page);

	host_smp_start(2, seed);
	t = sim_kthread_on(0, truncator, NULL, "truncator");
	r = sim_kthread_on(1, reader, NULL, "reader");
	BUG_ON(kthread_join(t));
	BUG_ON(kthread_join(r));
	if (mapping->nrpages != CUT_PAGES)
		panic("%lu pages cached after the cut, not %d", mapping->nrpages, CUT_PAGES);
	page = find_get_page(mapping, 1);
	BUG_ON(!page || PageTail(page) || !PageLRU(page) || !PageActive(page));
	put_page(page);
	iput(inode);
	sim_shutdown();
}

Test(sim_folio_smp, a_page_split_off_is_on_its_list_before_a_reader_finds_it, .timeout = 600)
{
	cr_assert_eq(host_smp_seeds(NR_SEEDS, split_race), 0);
}
