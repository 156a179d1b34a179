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

static wait_queue_head_t *page_waitqueue(struct page *page)
{
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
		panic("unlock_page: page %lu not locked", page->index);
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
 * Without the mapping's lock, as Linux's filemap_get_entry(): the tree is read under RCU
 * (kernel/lib/xarray.c), the page taken with a speculative reference and kept only if it
 * is still at index afterwards. Every page written is looked up at least once on its way
 * in and once more by ext4's writeback; taking the lock with interrupts off for each
 * showed among the largest costs after the copy.
 */
struct page *find_get_page(struct address_space *mapping, pgoff_t index)
{
	struct page *page;

	rcu_read_lock();
	for (;;) {
		page = xa_load(&mapping->i_pages, index);
		if (!page)
			break;
		if (!get_page_unless_zero(page))
			continue; /* freed meanwhile: look again */
		if (page == xa_load(&mapping->i_pages, index))
			break;
		put_page(page); /* moved or reused meanwhile */
	}
	rcu_read_unlock();
	return page;
}

struct page *find_lock_page(struct address_space *mapping, pgoff_t index)
{
	for (;;) {
		struct page *page = find_get_page(mapping, index);

		if (!page)
			return NULL;
		lock_page(page);
		if (page->mapping == mapping && page->index == index)
			return page;
		/* truncated while we waited for the lock */
		unlock_page(page);
		put_page(page);
	}
}

/*
 * Into the tree: its nodes come atomically under the lock, or, when that fails and the
 * caller may sleep, from spares allocated outside it with the caller's gfp (Linux's
 * xas_nomem()), so that memory pressure fails an insert only where the caller's gfp would.
 */
static int page_cache_insert(struct address_space *mapping, struct page *page, gfp_t gfp)
{
	struct xa_spare spare = { 0 };
	unsigned long flags;
	int err;

	for (;;) {
		xa_lock_irqsave(&mapping->i_pages, flags);
		err = xa_insert_spare(&mapping->i_pages, page->index, page, GFP_ATOMIC, &spare);
		if (!err) {
			mapping->nrpages++;
			mod_page_state(page, NR_FILE_PAGES, 1);
		}
		xa_unlock_irqrestore(&mapping->i_pages, flags);
		if (err != -ENOMEM || !gfpflags_allow_blocking(gfp) || xa_spare_fill(&spare, gfp))
			break;
	}
	xa_spare_free(&spare);
	return err;
}

int add_to_page_cache_lru(struct page *page, struct address_space *mapping, pgoff_t index, gfp_t gfp)
{
	int err;

	BUG_ON(!PageLocked(page));
	/* charged first: the page-state counters below follow page->memcg */
	err = mem_cgroup_charge(page, gfp);
	if (err)
		return err;
	get_page(page); /* the cache's reference */
	page->mapping = mapping;
	page->index = index;
	err = page_cache_insert(mapping, page, gfp);
	if (err) {
		page->mapping = NULL;
		mem_cgroup_uncharge(page);
		put_page(page);
		return err;
	}
	lru_cache_add(page, mapping);
	return 0;
}

struct page *find_or_create_page(struct address_space *mapping, pgoff_t index, gfp_t gfp)
{
	for (;;) {
		struct page *page = find_lock_page(mapping, index);
		int err;

		if (page)
			return page;
		page = alloc_page(gfp);
		if (!page)
			return ERR_PTR(-ENOMEM);
		SetPageLocked(page);
		err = add_to_page_cache_lru(page, mapping, index, gfp);
		if (!err)
			return page; /* our reference and the cache's */
		/* unlocked before the last put: a freed page may belong to someone else at once */
		ClearPageLocked(page);
		put_page(page);
		if (err != -EEXIST)
			return ERR_PTR(err);
	}
}

/*
 * Remove a locked page from its mapping. i_pages lock held. It stays on its LRU list and
 * charged to its memcg until its last reference goes (put_page()).
 */
static void __delete_from_page_cache(struct page *page, struct address_space *mapping)
{
	xa_erase(&mapping->i_pages, page->index);
	mapping->nrpages--;
	mod_page_state(page, NR_FILE_PAGES, -1);
	page->mapping = NULL;
}

void delete_from_page_cache(struct page *page)
{
	struct address_space *mapping = page->mapping;
	unsigned long flags;

	BUG_ON(!PageLocked(page));
	BUG_ON(PageWriteback(page));
	if (!mapping)
		return;
	if (PageDirty(page))
		cancel_dirty_page(page);
	xa_lock_irqsave(&mapping->i_pages, flags);
	__delete_from_page_cache(page, mapping);
	xa_unlock_irqrestore(&mapping->i_pages, flags);
	put_page(page); /* the cache's reference */
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
	while (n < nr && (page = xa_find(&mapping->i_pages, &index, end, tag)) != NULL) {
		get_page(page);
		pages[n++] = page;
		if (index == end || index == ~0UL) {
			index = end;
			break;
		}
		index++;
	}
	xa_unlock_irqrestore(&mapping->i_pages, flags);
	/* past the last page returned; past end when the range is exhausted */
	*start = n ? pages[n - 1]->index + 1 : end + 1;
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
 * Start reads of the missing pages in [index, index + nr) (clipped to the file), through
 * ->readahead in one batch when the filesystem has it.
 */
static void do_page_cache_ra(struct file *file, struct address_space *mapping, pgoff_t index,
			     unsigned int nr)
{
	struct inode *inode = mapping->host;
	pgoff_t end_index = (pgoff_t)((inode->i_size - 1) >> PAGE_SHIFT);
	struct page *pages[RA_MAX_PAGES];
	unsigned int n = 0;

	if (!inode->i_size)
		return;
	nr = min(nr, (unsigned int)RA_MAX_PAGES);
	for (pgoff_t i = index; i < index + nr && i <= end_index; i++) {
		struct page *page = find_get_page(mapping, i);
		if (page) {
			put_page(page);
			break; /* stop at the first cached page: the rest is likely cached too */
		}
		page = alloc_page(mapping->gfp_mask | __GFP_NOWARN);
		if (!page)
			break;
		SetPageLocked(page);
		if (add_to_page_cache_lru(page, mapping, i, mapping->gfp_mask)) {
			ClearPageLocked(page);
			put_page(page);
			break;
		}
		pages[n++] = page;
	}
	if (!n)
		return;
	if (mapping->a_ops->readahead) {
		struct readahead_control ractl = {
			.file = file,
			.mapping = mapping,
			.index = index,
			.nr_pages = n,
			.pages = pages,
		};
		mapping->a_ops->readahead(&ractl);
	} else {
		for (unsigned int i = 0; i < n; i++)
			mapping->a_ops->readpage(file, pages[i]);
	}
	for (unsigned int i = 0; i < n; i++)
		put_page(pages[i]);
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
		size_t n = min(PAGE_SIZE - offset, len - done);
		n = (size_t)min((loff_t)n, isize - pos);

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
				if (page->mapping != mapping) {
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
		memcpy(buf + done, (char *)page_address(page) + offset, n);
		mark_page_accessed(page);
		put_page(page);
		file->f_ra.prev_index = index;
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
		size_t offset = (size_t)(pos & (PAGE_SIZE - 1));
		unsigned int bytes = (unsigned int)min(PAGE_SIZE - offset, len - done);
		struct page *page;
		void *fsdata = NULL;

		if (fatal_signal_pending(current)) {
			err = -EINTR;
			break;
		}
		err = a_ops->write_begin(file, mapping, pos, bytes, &page, &fsdata);
		if (err)
			break;
		memcpy((char *)page_address(page) + offset, buf + done, bytes);
		int copied = a_ops->write_end(file, mapping, pos, bytes, bytes, page, fsdata);
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
	struct page *page = find_or_create_page(mapping, index, mapping->gfp_mask);

	(void)file;
	(void)fsdata;
	if (IS_ERR(page))
		return (int)PTR_ERR(page);
	if (!PageUptodate(page) && len != PAGE_SIZE) {
		/* no backing store: what is not written is zero */
		size_t from = (size_t)(pos & (PAGE_SIZE - 1));
		char *addr = page_address(page);
		memset(addr, 0, from);
		memset(addr + from + len, 0, PAGE_SIZE - from - len);
	}
	*pagep = page;
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
