/*
 * The page cache: lookup and insertion of file pages, page locks and waits, reads through
 * the cache with sequential readahead, buffered writes, and waiting for a mapping's
 * writeback. The state changes of dirty/writeback pages are in page-writeback.c.
 */
#include <cgwb/pagemap.h>
#include <cgwb/bio.h>
#include <cgwb/fs.h>
#include <cgwb/writeback.h>
#include <cgwb/backing-dev.h>
#include <cgwb/vmstat.h>
#include <cgwb/sched.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include <cgwb/vmscan.h>
#include <cgwb/memcontrol.h>

#define PAGE_WAIT_TABLE_BITS 6
#define RA_INITIAL_PAGES 8       /* 32 KiB */
#define RA_MAX_PAGES 64          /* 256 KiB */
#define MMAP_READAROUND_PAGES 32 /* Linux's default ra_pages (VM_READAHEAD_PAGES) */

static wait_queue_head_t page_wait_table[1 << PAGE_WAIT_TABLE_BITS];

void filemap_init(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(page_wait_table); i++)
		init_waitqueue_head(&page_wait_table[i]);
}

/* A folio's waiters wait on its head's queue, whichever of its pages they name. */
static wait_queue_head_t *page_waitqueue(struct page *page)
{
	page = compound_head(page);
	return &page_wait_table[(page_to_pfn(page) * 0x9e3779b9UL >> 7) &
				((1 << PAGE_WAIT_TABLE_BITS) - 1)];
}

void address_space_init(struct address_space *mapping, struct inode *host)
{
	memset(mapping, 0, sizeof(*mapping));
	mapping->host = host;
	xa_init(&mapping->i_pages);
	mapping->gfp_mask = GFP_KERNEL;
	INIT_LIST_HEAD(&mapping->private_list);
	spin_lock_init(&mapping->i_mmap_lock);
	INIT_LIST_HEAD(&mapping->i_mmap);
}

void mapping_set_error(struct address_space *mapping, int err)
{
	if (!err)
		return;
	if (!mapping->wb_err)
		WRITE_ONCE(mapping->wb_err, err);
	/* IO completes on any CPU: two errors at once must count twice */
	__atomic_fetch_add(&mapping->wb_err_count, 1, __ATOMIC_RELAXED);
	if (mapping->host && mapping->host->i_sb)
		sb_record_wb_err(mapping->host->i_sb, err);
}

int filemap_check_errors(struct address_space *mapping)
{
	int err = READ_ONCE(mapping->wb_err);

	if (err)
		mapping->wb_err = 0;
	return err;
}

/* ---------------------------------------------------------------- locks and waits */

bool trylock_page(struct page *page)
{
	return !TestSetPageLocked(page);
}

/*
 * The IO a page wait is for may sit in the waiter's own plug: schedule() sends it before
 * the waiter sleeps (blk-plug.c). Page waits are IO waits for pressure stall information,
 * as Linux's io_schedule() has them.
 */
void lock_page(struct page *page)
{
	if (!trylock_page(page))
		io_wait_event(*page_waitqueue(page), trylock_page(page));
}

int lock_page_killable(struct page *page)
{
	int token, err;

	if (trylock_page(page))
		return 0;
	token = io_schedule_prepare();
	err = wait_event_killable(*page_waitqueue(page), trylock_page(page));
	io_schedule_finish(token);
	return err;
}

void wake_up_page(struct page *page)
{
	wait_queue_head_t *wq = page_waitqueue(page);

	smp_mb();
	if (waitqueue_active(wq))
		wake_up_all(wq);
}

/* May run in interrupt context (read completion). */
void unlock_page(struct page *page)
{
	if (!TestClearPageLocked(page))
		panic("unlock_page: page %lu not locked", page_index(page));
	wake_up_page(page);
}

void wait_on_page_locked(struct page *page)
{
	if (PageLocked(page))
		io_wait_event(*page_waitqueue(page), !PageLocked(page));
}

void wait_on_page_writeback(struct page *page)
{
	if (PageWriteback(page))
		io_wait_event(*page_waitqueue(page), !PageWriteback(page));
}

/* ---------------------------------------------------------------- lookup and insertion */

/*
 * A folio of n pages fills the n slots of its indexes, its head in each, so that a lookup
 * at any of them finds it (Linux keeps one multi-index entry; this tree has none). It sits
 * at an index aligned to its size, so all n slots are in one leaf of the tree. The tags
 * (dirty, writeback, towrite) are the folio's, kept at its first index only.
 */

/*
 * Without the mapping's lock, as Linux's filemap_get_entry(): the tree is read under RCU
 * (kernel/lib/xarray.c), the folio taken with a speculative reference and kept only if it
 * is still at index afterwards. Every page written is looked up at least once on its way
 * in and once more by ext4's writeback; taking the lock with interrupts off for each
 * showed among the largest costs after the copy.
 */
struct folio *filemap_get_folio(struct address_space *mapping, pgoff_t index)
{
	struct page *head;

	rcu_read_lock();
	for (;;) {
		head = xa_load(&mapping->i_pages, index);
		if (!head)
			break;
		if (!get_page_unless_zero(head))
			continue; /* freed meanwhile: look again */
		if (head == xa_load(&mapping->i_pages, index))
			break;
		put_page(head); /* moved or reused meanwhile */
	}
	rcu_read_unlock();
	return head ? page_folio(head) : NULL;
}

/* Whether folio is still the one of mapping at index (truncation may have taken it). */
static bool folio_contains_index(struct folio *folio, struct address_space *mapping, pgoff_t index)
{
	return folio->mapping == mapping && index >= folio->index && index < folio_next_index(folio);
}

struct folio *filemap_lock_folio(struct address_space *mapping, pgoff_t index)
{
	for (;;) {
		struct folio *folio = filemap_get_folio(mapping, index);

		if (!folio)
			return NULL;
		folio_lock(folio);
		if (folio_contains_index(folio, mapping, index))
			return folio;
		/* truncated while we waited for the lock */
		folio_unlock(folio);
		folio_put(folio);
	}
}

struct page *find_get_page(struct address_space *mapping, pgoff_t index)
{
	struct folio *folio = filemap_get_folio(mapping, index);

	return folio ? folio_file_page(folio, index) : NULL;
}

struct page *find_lock_page(struct address_space *mapping, pgoff_t index)
{
	struct folio *folio = filemap_lock_folio(mapping, index);

	return folio ? folio_file_page(folio, index) : NULL;
}

/* Take folio's slots out again (i_pages lock held); those from first on were never filled. */
static void page_cache_erase(struct address_space *mapping, struct folio *folio, unsigned long first)
{
	for (unsigned long i = 0; i < first; i++)
		xa_erase(&mapping->i_pages, folio->index + i);
}

/*
 * Into the tree: its nodes come atomically under the lock, or, when that fails and the
 * caller may sleep, from spares allocated outside it with the caller's gfp (Linux's
 * xas_nomem()), so that memory pressure fails an insert only where the caller's gfp would.
 * The spares are enough for one path down the tree, which is all a folio's slots need.
 */
static int page_cache_insert(struct address_space *mapping, struct folio *folio, gfp_t gfp)
{
	unsigned long nr = folio_nr_pages(folio), i;
	struct xa_spare spare = { 0 };
	unsigned long flags;
	int err;

	for (;;) {
		xa_lock_irqsave(&mapping->i_pages, flags);
		for (i = 0, err = 0; i < nr && !err; i++)
			err = xa_insert_spare(&mapping->i_pages, folio->index + i, folio,
					      GFP_ATOMIC, &spare);
		if (err) {
			page_cache_erase(mapping, folio, i - 1);
		} else {
			mapping->nrpages += nr;
			mod_page_state(&folio->page, NR_FILE_PAGES, (long)nr);
		}
		xa_unlock_irqrestore(&mapping->i_pages, flags);
		if (err != -ENOMEM || !gfpflags_allow_blocking(gfp) || xa_spare_fill(&spare, gfp))
			break;
	}
	xa_spare_free(&spare);
	return err;
}

int filemap_add_folio(struct address_space *mapping, struct folio *folio, pgoff_t index, gfp_t gfp)
{
	int err;

	BUG_ON(!folio_test_locked(folio));
	BUG_ON(index & (folio_nr_pages(folio) - 1));
	/* charged first: the page-state counters below follow the memcg */
	err = mem_cgroup_charge(&folio->page, gfp);
	if (err)
		return err;
	folio_get(folio); /* the cache's reference */
	folio->mapping = mapping;
	folio->index = index;
	err = page_cache_insert(mapping, folio, gfp);
	if (err) {
		folio->mapping = NULL;
		mem_cgroup_uncharge(&folio->page);
		folio_put(folio);
		return err;
	}
	lru_cache_add(&folio->page, mapping);
	return 0;
}

/*
 * The order of a new folio for nr pages from index: nr rounded down to a power of two, at
 * most MAX_PAGECACHE_ORDER, and no more than index's alignment allows, so that the folio
 * starts at index (as Linux's __filemap_get_folio() with fgf_set_order()): nothing before
 * index is in it.
 */
static unsigned int new_folio_order(const struct address_space *mapping, pgoff_t index,
				    unsigned long nr)
{
	unsigned int order;

	if (!mapping_large_folio_support(mapping) || nr <= 1)
		return 0;
	order = (unsigned int)min(ilog2(nr), MAX_PAGECACHE_ORDER);
	while (order && (index & ((1UL << order) - 1)))
		order--;
	return order;
}

/* The folio for a write of len bytes from the start of page index. */
static unsigned int write_folio_order(const struct address_space *mapping, pgoff_t index, size_t len)
{
	return new_folio_order(mapping, index, DIV_ROUND_UP(len, PAGE_SIZE));
}

/*
 * A new locked folio of order at index in the cache: 0, -EEXIST if one of its slots is
 * taken, or another error. A large folio that cannot be had at once is not worth reclaim.
 */
static struct folio *add_new_folio(struct address_space *mapping, pgoff_t index, unsigned int order,
				   gfp_t gfp)
{
	gfp_t alloc_gfp = order ? (gfp & ~__GFP_DIRECT_RECLAIM) | __GFP_NOWARN : gfp;
	struct folio *folio = folio_alloc(alloc_gfp, order);
	int err;

	if (!folio)
		return ERR_PTR(-ENOMEM);
	SetPageLocked(&folio->page);
	err = filemap_add_folio(mapping, folio, index, gfp);
	if (!err)
		return folio; /* our reference and the cache's */
	/* unlocked before the last put: a freed page may belong to someone else at once */
	ClearPageLocked(&folio->page);
	folio_put(folio);
	return ERR_PTR(err);
}

struct folio *filemap_grab_folio(struct address_space *mapping, pgoff_t index, size_t len, gfp_t gfp)
{
	for (;;) {
		struct folio *folio = filemap_lock_folio(mapping, index);
		unsigned int order = write_folio_order(mapping, index, len);

		if (folio)
			return folio;
		for (;;) {
			folio = add_new_folio(mapping, index, order, gfp);
			if (!IS_ERR(folio) || !order)
				break;
			order--; /* pages cached inside it, or no block that large: smaller */
		}
		if (!IS_ERR(folio) || PTR_ERR(folio) != -EEXIST)
			return folio;
		/* someone else put a page at index meanwhile: take theirs */
	}
}

struct page *find_or_create_page(struct address_space *mapping, pgoff_t index, gfp_t gfp)
{
	struct folio *folio = filemap_grab_folio(mapping, index, PAGE_SIZE, gfp);

	return IS_ERR(folio) ? ERR_CAST(folio) : folio_file_page(folio, index);
}

/*
 * Remove a locked folio from its mapping. i_pages lock held. It stays on its LRU list and
 * charged to its memcg until its last reference goes (put_page()).
 */
static void __filemap_remove_folio(struct folio *folio, struct address_space *mapping)
{
	long nr = (long)folio_nr_pages(folio);

	page_cache_erase(mapping, folio, (unsigned long)nr);
	mapping->nrpages -= (unsigned long)nr;
	mod_page_state(&folio->page, NR_FILE_PAGES, -nr);
	folio->mapping = NULL;
}

void filemap_remove_folio(struct folio *folio)
{
	struct address_space *mapping = folio->mapping;
	unsigned long flags;

	BUG_ON(!folio_test_locked(folio));
	BUG_ON(folio_test_writeback(folio));
	if (!mapping)
		return;
	if (folio_test_dirty(folio))
		cancel_dirty_page(&folio->page);
	xa_lock_irqsave(&mapping->i_pages, flags);
	__filemap_remove_folio(folio, mapping);
	xa_unlock_irqrestore(&mapping->i_pages, flags);
	folio_put(folio); /* the cache's reference */
}

void delete_from_page_cache(struct page *page)
{
	filemap_remove_folio(page_folio(page));
}

/*
 * Where a search of the tree from index must begin: at the first index of the folio that
 * covers index, whose tags are kept there (i_pages lock held).
 */
pgoff_t page_cache_folio_start(struct address_space *mapping, pgoff_t index)
{
	struct page *head = xa_load(&mapping->i_pages, index);

	return head && head->index < index ? head->index : index;
}

unsigned int find_get_pages_tag(struct address_space *mapping, pgoff_t *start, pgoff_t end,
				xa_mark_t tag, unsigned int nr, struct page **pages)
{
	unsigned long flags, index = *start;
	unsigned int n = 0;
	struct page *page;

	if (index > end)
		return 0;
	xa_lock_irqsave(&mapping->i_pages, flags);
	index = page_cache_folio_start(mapping, index);
	while (n < nr && index <= end &&
	       (page = xa_find(&mapping->i_pages, &index, end, tag)) != NULL) {
		get_page(page);
		pages[n++] = page;
		index = page->index + compound_nr(page); /* past the folio */
		if (!index)
			break; /* the top of the index space */
	}
	xa_unlock_irqrestore(&mapping->i_pages, flags);
	/* past the last folio returned; past end when the range is exhausted */
	*start = n ? pages[n - 1]->index + compound_nr(pages[n - 1]) : end + 1;
	if (!*start)
		*start = ~0UL; /* wrapped at the top of the index space */
	return n;
}

unsigned int find_get_pages_range(struct address_space *mapping, pgoff_t *start, pgoff_t end,
				  unsigned int nr, struct page **pages)
{
	return find_get_pages_tag(mapping, start, end, XA_PRESENT, nr, pages);
}

/* ---------------------------------------------------------------- reading */

static int read_page_sync(struct file *file, struct address_space *mapping, struct page *page)
{
	int err = mapping->a_ops->readpage(file, page);

	if (err)
		return err;
	wait_on_page_locked(page);
	return PageUptodate(page) ? 0 : -EIO;
}

struct page *read_mapping_page(struct address_space *mapping, pgoff_t index, struct file *file)
{
	struct page *page = find_or_create_page(mapping, index, mapping->gfp_mask);
	int err;

	if (IS_ERR(page))
		return page;
	if (PageUptodate(page)) {
		unlock_page(page);
		return page;
	}
	err = read_page_sync(file, mapping, page);
	if (err) {
		put_page(page);
		return ERR_PTR(err);
	}
	return page;
}

/*
 * A new locked folio for readahead at index, at most nr pages: as large as the mapping
 * takes, smaller where part of it is cached already or no block that large is free. NULL
 * when index itself is cached, or no page at all can be had.
 */
static struct folio *ra_new_folio(struct address_space *mapping, pgoff_t index, unsigned long nr)
{
	unsigned int order = new_folio_order(mapping, index, nr);

	for (;;) {
		struct folio *folio =
			add_new_folio(mapping, index, order, mapping->gfp_mask | __GFP_NOWARN);

		if (!IS_ERR(folio))
			return folio;
		if (!order)
			return NULL;
		order--;
	}
}

/*
 * Start reads of the missing pages in [index, index + nr) (clipped to the file), through
 * ->readahead in one batch when the filesystem has it. A mapping that takes large folios
 * gets them, none reaching past the file's last page (Linux's page_cache_ra_order()).
 */
static void do_page_cache_ra(struct file *file, struct address_space *mapping, pgoff_t index,
			     unsigned int nr)
{
	struct inode *inode = mapping->host;
	pgoff_t end_index = (pgoff_t)((inode->i_size - 1) >> PAGE_SHIFT);
	struct folio *folios[RA_MAX_PAGES];
	unsigned int n = 0, pages = 0;
	pgoff_t end;

	if (!inode->i_size)
		return;
	end = min(index + min(nr, (unsigned int)RA_MAX_PAGES), end_index + 1);
	for (pgoff_t i = index; i < end;) {
		/* stop at the first cached page: the rest is likely cached too */
		struct folio *folio = ra_new_folio(mapping, i, end - i);

		if (!folio)
			break;
		folios[n++] = folio;
		pages += (unsigned int)folio_nr_pages(folio);
		i += folio_nr_pages(folio);
	}
	if (!n)
		return;
	if (mapping->a_ops->readahead) {
		struct readahead_control ractl = {
			.file = file,
			.mapping = mapping,
			.index = index,
			.nr_pages = pages,
			.nr_folios = n,
			.folios = folios,
		};
		mapping->a_ops->readahead(&ractl);
	} else {
		for (unsigned int i = 0; i < n; i++)
			mapping->a_ops->readpage(file, &folios[i]->page);
	}
	for (unsigned int i = 0; i < n; i++)
		folio_put(folios[i]);
}

/* Whether there is nothing to read at index: its page is cached, or it is past the end. */
static bool page_cached(struct address_space *mapping, pgoff_t index)
{
	struct page *page;

	if ((loff_t)index << PAGE_SHIFT >= mapping->host->i_size)
		return true;
	page = find_get_page(mapping, index);
	if (page)
		put_page(page);
	return page != NULL;
}

/* Start reading every missing run of [start, start + nr); nothing waits for the reads. */
static void page_cache_ra_range(struct file *file, struct address_space *mapping, pgoff_t start,
				unsigned int nr)
{
	for (pgoff_t i = start; i < start + nr; i++)
		if (!page_cached(mapping, i))
			do_page_cache_ra(file, mapping, i, (unsigned int)(start + nr - i));
}

/*
 * A page for a fault on a file mapping, uptodate, with a reference. A page not in the cache
 * brings its neighbours with it, as Linux's do_sync_mmap_readahead() read-around: a window
 * of MMAP_READAROUND_PAGES centred on the fault. A cached page whose successor half a
 * window on is missing starts the next window without waiting (Linux marks a page of the
 * window PG_readahead for its async mmap readahead). A program touching a mapping page by
 * page then waits for the disk once per window at most, not once per page.
 */
struct page *filemap_fault_page(struct file *file, pgoff_t index)
{
	struct address_space *mapping = file->f_mapping;
	const unsigned int half = MMAP_READAROUND_PAGES / 2;

	if (!page_cached(mapping, index))
		page_cache_ra_range(file, mapping, index > half ? index - half : 0,
				    MMAP_READAROUND_PAGES);
	else if (!page_cached(mapping, index + half))
		page_cache_ra_range(file, mapping, index + half, MMAP_READAROUND_PAGES);
	return read_mapping_page(mapping, index, file);
}

/* Sequential readahead: the window doubles while the reader keeps going forward. */
static void page_cache_readahead(struct file *file, struct address_space *mapping, pgoff_t index,
				 unsigned long req_pages)
{
	struct file_ra_state *ra = &file->f_ra;
	bool sequential = index == ra->prev_index + 1 || index == ra->start + ra->size ||
			  (index == 0 && ra->size == 0);
	unsigned int size;

	if (sequential && ra->size)
		size = min(ra->size * 2, (unsigned int)RA_MAX_PAGES);
	else
		size = RA_INITIAL_PAGES;
	size = max(size, (unsigned int)min(req_pages, (unsigned long)RA_MAX_PAGES));
	ra->start = index;
	ra->size = size;
	ra->async_size = size / 2;
	do_page_cache_ra(file, mapping, index, size);
}

ssize_t generic_file_read(struct file *file, char *buf, size_t len, loff_t *ppos)
{
	struct address_space *mapping = file->f_mapping;
	struct inode *inode = mapping->host;
	loff_t pos = *ppos;
	size_t done = 0;
	int err = 0;

	while (done < len) {
		loff_t isize = inode->i_size;
		if (pos >= isize)
			break;
		pgoff_t index = (pgoff_t)(pos >> PAGE_SHIFT);
		size_t offset = (size_t)(pos & (PAGE_SIZE - 1));

		struct page *page = find_get_page(mapping, index);
		if (!page) {
			page_cache_readahead(file, mapping, index,
					     DIV_ROUND_UP(len - done + offset, PAGE_SIZE));
			page = find_get_page(mapping, index);
		} else if (index == file->f_ra.start + file->f_ra.size - file->f_ra.async_size &&
			   file->f_ra.size) {
			/* reached the trigger page: start the next window ahead of the reader */
			page_cache_readahead(file, mapping, file->f_ra.start + file->f_ra.size,
					     file->f_ra.size);
		}
		if (!page) {
			page = read_mapping_page(mapping, index, file);
			if (IS_ERR(page)) {
				err = (int)PTR_ERR(page);
				break;
			}
		} else if (!PageUptodate(page)) {
			if (lock_page_killable(page)) {
				put_page(page);
				err = -EINTR;
				break;
			}
			if (!PageUptodate(page)) {
				if (page_folio(page)->mapping != mapping) {
					/* truncated: look again */
					unlock_page(page);
					put_page(page);
					continue;
				}
				err = read_page_sync(file, mapping, page);
			} else {
				unlock_page(page);
			}
			if (err) {
				put_page(page);
				break;
			}
		}
		/* as far as the folio goes: one lookup for each of a large folio's pages */
		struct folio *folio = page_folio(page);
		size_t at = (size_t)(pos - folio_pos(folio));
		size_t n = min(folio_size(folio) - at, len - done);

		n = (size_t)min((loff_t)n, isize - pos);
		memcpy(buf + done, (char *)folio_address(folio) + at, n);
		mark_page_accessed(page);
		put_page(page);
		file->f_ra.prev_index = (pgoff_t)((pos + (loff_t)n - 1) >> PAGE_SHIFT);
		done += n;
		pos += (loff_t)n;
		if (fatal_signal_pending(current)) {
			err = -EINTR;
			break;
		}
	}
	*ppos = pos;
	return done ? (ssize_t)done : err;
}

/* ---------------------------------------------------------------- writing */

ssize_t generic_perform_write(struct file *file, const char *buf, size_t len, loff_t pos)
{
	struct address_space *mapping = file->f_mapping;
	const struct address_space_operations *a_ops = mapping->a_ops;
	size_t done = 0;
	int err = 0;

	while (done < len) {
		size_t chunk = mapping_max_folio_size(mapping);
		size_t bytes = min(chunk - (size_t)(pos & (loff_t)(chunk - 1)), len - done);
		struct page *page;
		struct folio *folio;
		void *fsdata = NULL;

		if (fatal_signal_pending(current)) {
			err = -EINTR;
			break;
		}
		err = a_ops->write_begin(file, mapping, pos, (unsigned int)bytes, &page, &fsdata);
		if (err)
			break;
		/* as far as the folio goes: one that was cached may be smaller than the chunk */
		folio = page_folio(page);
		size_t offset = (size_t)(pos - folio_pos(folio));
		bytes = min(bytes, folio_size(folio) - offset);
		memcpy((char *)folio_address(folio) + offset, buf + done, bytes);
		int copied = a_ops->write_end(file, mapping, pos, (unsigned int)bytes,
					      (unsigned int)bytes, page, fsdata);
		if (copied < 0) {
			err = copied;
			break;
		}
		done += (size_t)copied;
		pos += copied;
		balance_dirty_pages_ratelimited(mapping);
	}
	return done ? (ssize_t)done : err;
}

int simple_write_begin(struct file *file, struct address_space *mapping, loff_t pos,
		       unsigned int len, struct page **pagep, void **fsdata)
{
	pgoff_t index = (pgoff_t)(pos >> PAGE_SHIFT);
	size_t in_page = (size_t)(pos & (PAGE_SIZE - 1));
	struct folio *folio = filemap_grab_folio(mapping, index, in_page + len, mapping->gfp_mask);

	(void)file;
	(void)fsdata;
	if (IS_ERR(folio))
		return (int)PTR_ERR(folio);
	if (!folio_test_uptodate(folio)) {
		/* no backing store: what is not written is zero */
		size_t from = (size_t)(pos - folio_pos(folio));
		size_t to = min(from + len, folio_size(folio));
		char *addr = folio_address(folio);

		memset(addr, 0, from);
		memset(addr + to, 0, folio_size(folio) - to);
	}
	*pagep = folio_file_page(folio, index);
	return 0;
}

int simple_write_end(struct file *file, struct address_space *mapping, loff_t pos, unsigned int len,
		     unsigned int copied, struct page *page, void *fsdata)
{
	struct inode *inode = mapping->host;
	loff_t last = pos + copied;

	(void)file;
	(void)len;
	(void)fsdata;
	SetPageUptodate(page);
	if (last > inode->i_size)
		inode->i_size = last;
	set_page_dirty(page);
	unlock_page(page);
	put_page(page);
	return (int)copied;
}

/* ---------------------------------------------------------------- writeback of a mapping */

/*
 * Pages past the end of file when the wait begins hold data written after it began: a
 * writer that keeps appending (its pages going under writeback one after the other ahead
 * of the walk) kept fsync and sync waiting until it stopped. The walk ends at the end of
 * file as it was.
 */
int filemap_fdatawait_range(struct address_space *mapping, loff_t start, loff_t end)
{
	loff_t size = mapping->host ? READ_ONCE(mapping->host->i_size) : LLONG_MAX;
	pgoff_t index = (pgoff_t)(start >> PAGE_SHIFT);
	pgoff_t last;
	struct page *pages[16];
	unsigned int n;

	if (end >= size)
		end = size - 1;
	if (end < start)
		return filemap_check_errors(mapping);
	last = (pgoff_t)(end >> PAGE_SHIFT);
	while (index <= last &&
	       (n = find_get_pages_tag(mapping, &index, last, PAGECACHE_TAG_WRITEBACK, 16, pages))) {
		for (unsigned int i = 0; i < n; i++) {
			wait_on_page_writeback(pages[i]);
			put_page(pages[i]);
		}
		if (index == ~0UL)
			break;
	}
	return filemap_check_errors(mapping);
}
