/*
 * Page reclaim (portable). Page-cache pages sit on two LRU lists: new pages on the inactive
 * list, pages used twice on the active list (mark_page_accessed()). Reclaim walks the
 * inactive list from its old end and frees clean pages, a page used once included, as
 * Linux's folio_check_references() does for an unmapped file page (PG_referenced only
 * decides its promotion at a second use); it leaves dirty and under-writeback pages alone
 * while waking the flushers for them: writeback cleans them, then a later pass frees them.
 * A clean page programs map loses its entries first (try_to_unmap(): no accessed bits are
 * kept, so a mapped page is not kept for being young). When the active list grows larger
 * than the inactive one, its oldest pages are moved down.
 *
 * Every memory cgroup, the root included, has its own pair of lists (its lruvec), and a
 * page sits on the lists of the memcg it is charged to (page->memcg, fixed from the charge
 * to the page's last put: a page leaves its list there, not when it leaves the cache, see
 * mm/swap.c). Global reclaim walks every memcg, each scanned in proportion to its
 * share of the LRU pages, so that no group is spared or singled out; a memcg at its limit
 * reclaims from its own subtree only (try_to_free_mem_cgroup_pages).
 */
#include <cgwb/rmap.h>
#include <cgwb/vmscan.h>
#include <cgwb/memcontrol.h>
#include <cgwb/pagemap.h>
#include <cgwb/fs.h>
#include <cgwb/writeback.h>
#include <cgwb/vmstat.h>
#include <cgwb/sched.h>
#include <cgwb/psi.h>
#include <cgwb/slab.h>
#include <cgwb/mutex.h>
#include <cgwb/bug.h>
#include <cgwb/printk.h>

enum lru_list {
	LRU_INACTIVE_FILE,
	LRU_ACTIVE_FILE,
	NR_LRU_LISTS,
};

struct lruvec {
	struct list_head lists[NR_LRU_LISTS];
};

static DEFINE_SPINLOCK(lru_lock);
static DEFINE_MUTEX(reclaim_mutex);

/*
 * Reclaim that finds memory held by dirty and writeback pages waits for writeback to free
 * some, as Linux's reclaim_throttle(VMSCAN_THROTTLE_WRITEBACK): until a batch of pages has
 * ended writeback, or a tenth of a second. A fixed short sleep gave up on a slow (io.max)
 * device long before its writeback came back, and the allocation failed.
 */
#define RECLAIM_THROTTLE_BATCH 32 /* Linux's SWAP_CLUSTER_MAX */
static DECLARE_WAIT_QUEUE_HEAD(reclaim_throttle_wq);
static unsigned int reclaim_pages_written;

struct lruvec *lruvec_alloc(gfp_t gfp)
{
	struct lruvec *lruvec = kmalloc(sizeof(*lruvec), gfp);

	if (lruvec)
		for (int i = 0; i < NR_LRU_LISTS; i++)
			INIT_LIST_HEAD(&lruvec->lists[i]);
	return lruvec;
}

void lruvec_free(struct lruvec *lruvec)
{
	for (int i = 0; lruvec && i < NR_LRU_LISTS; i++)
		WARN_ON(!list_empty(&lruvec->lists[i]));
	kfree(lruvec);
}

/* Stable from the charge, before the page enters the cache, to its last put (mm/swap.c). */
static struct list_head *page_lru_list(struct page *page, enum lru_list lru)
{
	return &((struct lruvec *)page_memcg(page)->lruvec)->lists[lru];
}

static bool mapping_unevictable(const struct address_space *mapping)
{
	return mapping && (mapping->flags & (1UL << AS_UNEVICTABLE));
}

void lru_cache_add(struct page *page, struct address_space *mapping)
{
	unsigned long flags;

	long nr = (long)compound_nr(page);

	if (mapping_unevictable(mapping)) {
		SetPageUnevictable(page);
		mod_page_state(page, NR_UNEVICTABLE, nr);
		return;
	}
	spin_lock_irqsave(&lru_lock, flags);
	SetPageLRU(page);
	list_add(&page->lru, page_lru_list(page, LRU_INACTIVE_FILE));
	mod_page_state(page, NR_INACTIVE_FILE, nr);
	spin_unlock_irqrestore(&lru_lock, flags);
}

/* Take the page off its list. lru_lock held, PageLRU set. */
static void del_page_from_lru(struct page *page)
{
	long nr = (long)compound_nr(page);

	list_del_init(&page->lru);
	ClearPageLRU(page);
	if (TestClearPageActive(page))
		mod_page_state(page, NR_ACTIVE_FILE, -nr);
	else
		mod_page_state(page, NR_INACTIVE_FILE, -nr);
}

void __page_cache_release(struct page *page)
{
	unsigned long flags;

	if (TestClearPageUnevictable(page)) {
		mod_page_state(page, NR_UNEVICTABLE, -(long)compound_nr(page));
		return;
	}
	/* unlocked first look: isolation (reclaim) holds a reference, so none is under way */
	if (!PageLRU(page))
		return;
	spin_lock_irqsave(&lru_lock, flags);
	del_page_from_lru(page);
	spin_unlock_irqrestore(&lru_lock, flags);
}

void lru_split_folio(struct page *head, unsigned long nr)
{
	unsigned long flags;

	spin_lock_irqsave(&lru_lock, flags);
	if (PageLRU(head))
		for (unsigned long i = nr - 1; i >= 1; i--)
			list_add(&head[i].lru, &head->lru); /* in order after the head */
	spin_unlock_irqrestore(&lru_lock, flags);
}

void mark_page_accessed(struct page *page)
{
	unsigned long flags;

	page = compound_head(page);
	if (!PageReferenced(page)) {
		SetPageReferenced(page);
		return;
	}
	spin_lock_irqsave(&lru_lock, flags);
	if (PageLRU(page) && !PageActive(page)) {
		long nr = (long)compound_nr(page);

		list_move(&page->lru, page_lru_list(page, LRU_ACTIVE_FILE));
		SetPageActive(page);
		mod_page_state(page, NR_INACTIVE_FILE, -nr);
		mod_page_state(page, NR_ACTIVE_FILE, nr);
		ClearPageReferenced(page);
		count_vm_events(PGACTIVATE, (unsigned long)nr);
	}
	spin_unlock_irqrestore(&lru_lock, flags);
}

static unsigned long lru_pages_local(struct mem_cgroup *memcg, enum node_stat_item item)
{
	long n = memcg_page_state_local(memcg, item);

	return n > 0 ? (unsigned long)n : 0;
}

/* Move memcg's oldest active pages down until its active list is no larger than its inactive. */
static void shrink_active_list(struct mem_cgroup *memcg, unsigned long nr)
{
	struct lruvec *lruvec = memcg->lruvec;
	unsigned long flags;

	spin_lock_irqsave(&lru_lock, flags);
	while (nr-- && !list_empty(&lruvec->lists[LRU_ACTIVE_FILE]) &&
	       lru_pages_local(memcg, NR_ACTIVE_FILE) > lru_pages_local(memcg, NR_INACTIVE_FILE)) {
		struct page *page =
			list_last_entry(&lruvec->lists[LRU_ACTIVE_FILE], struct page, lru);
		long n = (long)compound_nr(page);

		list_move(&page->lru, &lruvec->lists[LRU_INACTIVE_FILE]);
		ClearPageActive(page);
		ClearPageReferenced(page);
		mod_page_state(page, NR_ACTIVE_FILE, -n);
		mod_page_state(page, NR_INACTIVE_FILE, n);
		count_vm_events(PGDEACTIVATE, (unsigned long)n);
	}
	spin_unlock_irqrestore(&lru_lock, flags);
}

/*
 * Back on the list, whether or not the page is still in the cache (Linux's
 * folio_putback_lru()): if it was truncated meanwhile, the last put takes it off again.
 */
static void putback_page(struct page *page)
{
	unsigned long flags;

	spin_lock_irqsave(&lru_lock, flags);
	SetPageLRU(page);
	list_add(&page->lru, page_lru_list(page, LRU_INACTIVE_FILE));
	mod_page_state(page, NR_INACTIVE_FILE, (long)compound_nr(page));
	spin_unlock_irqrestore(&lru_lock, flags);
	put_page(page);
}

struct scan_result {
	unsigned long scanned, freed, dirty, writeback;
};

/* Try to free one isolated page (we hold a reference); false means put it back. */
static bool reclaim_page(struct page *page, gfp_t gfp, struct scan_result *sr)
{
	struct address_space *mapping;

	if (!trylock_page(page))
		return false;
	mapping = page->mapping;
	if (!mapping)
		goto keep; /* truncated meanwhile: its last reference frees it */
	if (PageWriteback(page)) {
		sr->writeback += compound_nr(page);
		goto keep;
	}
	if (PageDirty(page)) {
		sr->dirty += compound_nr(page);
		goto keep;
	}
	/* a clean page programs map: their entries go (the next touch faults it back in) */
	if (folio_mapped(page_folio(page)))
		try_to_unmap(page);
	/* the cache's, ours and its buffers' (PagePrivate): anything more is a user */
	if (page_count(page) > 2 + PagePrivate(page))
		goto keep;
	if (PagePrivate(page) &&
	    (!mapping->a_ops->releasepage || !mapping->a_ops->releasepage(page, gfp)))
		goto keep;
	delete_from_page_cache(page);
	unlock_page(page);
	return true;
keep:
	unlock_page(page);
	return false;
}

/*
 * Scan up to nr_to_scan pages from the old end of memcg's inactive list, stopping once
 * nr_to_free are freed. A large folio counts all its pages in both.
 */
static void shrink_inactive_list(struct mem_cgroup *memcg, unsigned long nr_to_scan,
				 unsigned long nr_to_free, gfp_t gfp, struct scan_result *sr)
{
	struct list_head *inactive = &((struct lruvec *)memcg->lruvec)->lists[LRU_INACTIVE_FILE];
	unsigned long flags, freed = 0, scanned = 0;

	while (scanned < nr_to_scan && freed < nr_to_free) {
		struct page *page;
		unsigned long nr;

		spin_lock_irqsave(&lru_lock, flags);
		if (list_empty(inactive)) {
			spin_unlock_irqrestore(&lru_lock, flags);
			break;
		}
		page = list_last_entry(inactive, struct page, lru);
		nr = compound_nr(page);
		scanned += nr;
		sr->scanned += nr;
		ClearPageReferenced(page); /* a use since it came down earns no second chance */
		if (!get_page_unless_zero(page)) {
			/* its last reference is going: the put takes it off the list */
			list_move(&page->lru, inactive);
			spin_unlock_irqrestore(&lru_lock, flags);
			continue;
		}
		del_page_from_lru(page);
		spin_unlock_irqrestore(&lru_lock, flags);

		if (reclaim_page(page, gfp, sr)) {
			put_page(page); /* the last reference: the page is free */
			freed += nr;
		} else {
			putback_page(page);
		}
	}
	sr->freed += freed;
}

/* One memcg's own lists (not its children's); its pgscan/pgsteal count what happened. */
static void shrink_lruvec(struct mem_cgroup *memcg, unsigned long nr_to_scan,
			  unsigned long nr_to_free, gfp_t gfp, struct scan_result *sr)
{
	struct scan_result own = { 0 };

	shrink_active_list(memcg, max(nr_to_scan * 2, 32UL));
	shrink_inactive_list(memcg, nr_to_scan, nr_to_free, gfp, &own);
	__atomic_add_fetch(&memcg->pgscan, own.scanned, __ATOMIC_RELAXED);
	__atomic_add_fetch(&memcg->pgsteal, own.freed, __ATOMIC_RELAXED);
	sr->scanned += own.scanned;
	sr->freed += own.freed;
	sr->dirty += own.dirty;
	sr->writeback += own.writeback;
}

static unsigned long lru_pages_tree(struct mem_cgroup *memcg)
{
	return memcg_page_state(memcg, NR_INACTIVE_FILE) + memcg_page_state(memcg, NR_ACTIVE_FILE);
}

/*
 * Reclaim about nr_to_free pages of root's subtree, scanning about nr_to_scan: every memcg
 * with LRU pages gets a share of both in proportion to its size (rounded up, so that small
 * groups are not skipped).
 */
static void shrink_memcg_tree(struct mem_cgroup *root, unsigned long nr_to_scan,
			      unsigned long nr_to_free, gfp_t gfp, struct scan_result *sr)
{
	unsigned long total = lru_pages_tree(root);
	struct mem_cgroup *memcg = NULL;

	while ((memcg = mem_cgroup_iter(root, memcg))) {
		unsigned long size = lru_pages_local(memcg, NR_INACTIVE_FILE) +
				     lru_pages_local(memcg, NR_ACTIVE_FILE);

		if (!size || !total)
			continue;
		shrink_lruvec(memcg, min(DIV_ROUND_UP(nr_to_scan * size, total), size + 1),
			      DIV_ROUND_UP(nr_to_free * size, total), gfp, sr);
	}
}

bool current_in_reclaim(void)
{
	return READ_ONCE(reclaim_mutex.owner) == current || (current && current->in_reclaim);
}

/*
 * Reclaim can recurse: evicting an inode may read a bitmap block, whose new page may need
 * memory or a charge. The nested reclaim (under the mutex, or from a shrinker) gives up
 * instead of deadlocking on the mutex or recursing.
 */
static bool reclaim_lock(void)
{
	if (current_in_reclaim())
		return false;
	mutex_lock(&reclaim_mutex);
	return true;
}

/* As Linux's current_gfp_context(): a task with a journal handle open stays out of filesystems. */
static gfp_t current_gfp_context(gfp_t gfp)
{
	return current && current->memalloc_nofs ? gfp & ~__GFP_FS : gfp;
}

static unsigned long scan_target(unsigned long nr, unsigned long lru)
{
	return min(max(nr * 4, 64UL), lru + 1);
}

/* Any context (a write completion): counted only while a reclaimer waits. */
void reclaim_writeback_done(void)
{
	if (!waitqueue_active(&reclaim_throttle_wq))
		return;
	if (++reclaim_pages_written >= RECLAIM_THROTTLE_BATCH)
		wake_up_all(&reclaim_throttle_wq);
}

static void reclaim_throttle_writeback(void)
{
	WRITE_ONCE(reclaim_pages_written, 0);
	wait_event_timeout(reclaim_throttle_wq,
			   READ_ONCE(reclaim_pages_written) >= RECLAIM_THROTTLE_BATCH, HZ / 10);
}

static LIST_HEAD(shrinker_list);

void register_shrinker(struct shrinker *shrinker)
{
	struct shrinker *s;

	list_for_each_entry(s, &shrinker_list, list)
		if (s == shrinker)
			return; /* the VFS started twice (the host tests) */
	list_add_tail(&shrinker->list, &shrinker_list);
}

/*
 * What the caches above hold: each shrinker in turn (the VFS: dentries, then the inodes they
 * pinned). Without reclaim_mutex, as Linux's shrinkers run under no lock of reclaim's own:
 * evicting an inode may wait for a journal commit, and the commit for a handle whose holder
 * is itself waiting to reclaim. The task is marked so that what the shrinkers allocate
 * does not reclaim again.
 */
static unsigned long shrink_caches(unsigned long nr)
{
	struct task_struct *me = current;
	struct shrinker *s;
	unsigned long freed = 0;

	if (!me)
		return 0; /* before the first task: nothing cached above mm yet */
	me->in_reclaim = true;
	list_for_each_entry(s, &shrinker_list, list)
		freed += s->scan(nr);
	me->in_reclaim = false;
	return freed;
}

unsigned long try_to_free_pages(gfp_t gfp, unsigned long nr)
{
	struct scan_result sr = { 0 };
	unsigned long pflags;

	gfp = current_gfp_context(gfp);
	if (!reclaim_lock())
		return 0;
	psi_memstall_enter(&pflags); /* reclaim is a memory stall (pressure stall information) */
	shrink_memcg_tree(root_mem_cgroup, scan_target(nr, lru_pages_tree(root_mem_cgroup)), nr,
			  gfp, &sr);
	mutex_unlock(&reclaim_mutex);
	if (sr.freed < nr && (gfp & __GFP_FS))
		sr.freed += shrink_caches(nr);
	count_vm_events(PGSCAN, sr.scanned);
	count_vm_events(PGSTEAL, sr.freed);

	if (sr.dirty + sr.writeback) {
		/* memory is held by dirty pages: have them written, wait for some to come back */
		flusher_hooks()->wakeup_flusher_threads(WB_REASON_VMSCAN);
		if (sr.freed < nr && gfpflags_allow_blocking(gfp))
			reclaim_throttle_writeback();
	}
	psi_memstall_leave(&pflags);
	return sr.freed;
}

unsigned long try_to_free_mem_cgroup_pages(struct mem_cgroup *memcg, unsigned long nr, gfp_t gfp)
{
	unsigned long lru = lru_pages_tree(memcg);
	struct scan_result sr = { 0 };
	unsigned long pflags;

	if (!lru || !reclaim_lock())
		return 0;
	psi_memstall_enter(&pflags);
	shrink_memcg_tree(memcg, scan_target(nr, lru), nr, gfp, &sr);
	psi_memstall_leave(&pflags);
	mutex_unlock(&reclaim_mutex);
	count_vm_events(PGSCAN, sr.scanned);
	count_vm_events(PGSTEAL, sr.freed);
	/* the caller, a charge over the limit, decides whether to wait for writeback */
	if (sr.dirty + sr.writeback)
		flusher_hooks()->wakeup_flusher_threads(WB_REASON_VMSCAN);
	return sr.freed;
}

static unsigned long reclaim_for_allocation(gfp_t gfp, unsigned int order, bool *coming)
{
	unsigned long freed = try_to_free_pages(gfp, 32UL << order);

	*coming = global_node_page_state(NR_WRITEBACK) + global_node_page_state(NR_FILE_DIRTY);
	return freed;
}

/* As Linux's show_free_areas(), in one line: what the memory holds (pages). */
static void show_mem(void)
{
	pr_warn("Mem-Info: active_file:%lu inactive_file:%lu unevictable:%lu dirty:%lu "
		"writeback:%lu slab:%lu free:%lu reserve:%lu\n",
		global_node_page_state(NR_ACTIVE_FILE), global_node_page_state(NR_INACTIVE_FILE),
		global_node_page_state(NR_UNEVICTABLE), global_node_page_state(NR_FILE_DIRTY),
		global_node_page_state(NR_WRITEBACK), slab_pages(), nr_free_pages(),
		totalreserve_pages);
}

unsigned long drop_pagecache(void)
{
	unsigned long freed = 0, round;

	do {
		struct mem_cgroup *memcg = NULL;
		struct scan_result sr = { 0 };

		if (!reclaim_lock())
			break;
		while ((memcg = mem_cgroup_iter(NULL, memcg))) {
			unsigned long size = lru_pages_local(memcg, NR_INACTIVE_FILE) +
					     lru_pages_local(memcg, NR_ACTIVE_FILE);

			/* not reclaim: like Linux's drop_caches, not counted in pgscan/pgsteal */
			shrink_active_list(memcg, size);
			shrink_inactive_list(memcg, size + 1, ~0UL, GFP_KERNEL, &sr);
		}
		mutex_unlock(&reclaim_mutex);
		round = sr.freed;
		freed += round;
	} while (round);
	count_vm_events(DROP_PAGECACHE, 1);
	return freed;
}

void vmscan_init(void)
{
	page_alloc_reclaim = reclaim_for_allocation;
	page_alloc_show_mem = show_mem;
}
