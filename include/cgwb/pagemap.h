/*
 * The page cache: per-file address_space holding the file's pages in a tagged radix tree,
 * and the operations a filesystem provides to fill and write back those pages.
 *
 * Page state rules (mm/filemap.c, mm/page-writeback.c):
 * - a page in the cache holds one reference for the cache; lookups take another;
 * - PG_locked serialises IO and state changes of one page (lock_page sleeps);
 * - dirty pages carry the DIRTY tag and are counted in NR_FILE_DIRTY, their memcg's
 *   file_dirty and their inode's wb's WB_RECLAIMABLE; pages under writeback carry the
 *   WRITEBACK tag and are counted in NR_WRITEBACK / file_writeback / WB_WRITEBACK;
 * - every transition happens under the mapping's i_pages lock, so counters and tags agree.
 */
#ifndef CGWB_PAGEMAP_H
#define CGWB_PAGEMAP_H

#include <cgwb/mm.h>
#include <cgwb/xarray.h>
#include <cgwb/wait.h>
#include <cgwb/writeback.h>

struct inode;
struct file;
struct address_space;
struct writeback_control;
struct iattr;

#define PAGECACHE_TAG_DIRTY XA_MARK_0
#define PAGECACHE_TAG_WRITEBACK XA_MARK_1
#define PAGECACHE_TAG_TOWRITE XA_MARK_2

/* mapping->flags */
#define AS_EIO 0 /* a writeback IO error happened: reported by the next fsync */
#define AS_ENOSPC 1
#define AS_UNEVICTABLE 2         /* pages are never reclaimed (ramfs) */
#define AS_NO_ACCOUNT 3          /* not dirty-accounted (no backing device writeback) */
#define AS_LARGE_FOLIO_SUPPORT 4 /* its filesystem takes folios of more than one page */

/* The largest folio a write puts in the page cache: 64 KiB. */
#define MAX_PAGECACHE_ORDER 4

struct readahead_control;

/* Named as in Linux before folios (5.x): every operation takes a struct page. */
struct address_space_operations {
	/* Fill a locked page that is not uptodate, then unlock it (synchronously or at IO end). */
	int (*readpage)(struct file *file, struct page *page);
	/*
	 * Optional: start reads for ractl's folios (locked, in the cache, large ones where the
	 * mapping takes them), unlocking each at IO end.
	 */
	void (*readahead)(struct readahead_control *ractl);
	/* Write one locked dirty page (clear_page_dirty_for_io already done); unlocks it. */
	int (*writepage)(struct page *page, struct writeback_control *wbc);
	/* Write many: defaults to write_cache_pages + writepage. */
	int (*writepages)(struct address_space *mapping, struct writeback_control *wbc);
	/* Mark a page dirty (defaults to __set_page_dirty_nobuffers); returns true if it was clean. */
	bool (*set_page_dirty)(struct address_space *mapping, struct page *page);
	/*
	 * Prepare [pos, pos+len) for a copy from the writer: returns the page at pos, its
	 * folio locked. A mapping that takes large folios may be given a len past the end of
	 * the folio it finds: the writer copies up to the folio's end, and write_end's len
	 * says so.
	 */
	int (*write_begin)(struct file *file, struct address_space *mapping, loff_t pos,
			   unsigned int len, struct page **pagep, void **fsdata);
	/* After the copy of copied bytes: mark dirty, update i_size, unlock and release. */
	int (*write_end)(struct file *file, struct address_space *mapping, loff_t pos,
			 unsigned int len, unsigned int copied, struct page *page, void *fsdata);
	/* The page is being removed from the cache (truncate): drop private state. */
	void (*invalidatepage)(struct page *page, size_t offset, size_t length);
	/* May the clean page's private state be freed so reclaim can drop it? */
	bool (*releasepage)(struct page *page, gfp_t gfp);
};

struct address_space {
	struct inode *host;
	struct xarray i_pages; /* index -> page; the xa_lock is "the i_pages lock" */
	unsigned long nrpages;
	const struct address_space_operations *a_ops;
	unsigned long flags;
	gfp_t gfp_mask;
	pgoff_t writeback_index;       /* where range_cyclic writeback resumes */
	int wb_err;                    /* first writeback error not yet reported */
	unsigned int wb_err_count;     /* errors ever set: a filesystem watches its device's */
	struct list_head private_list; /* buffers the filesystem associates (metadata) */
	unsigned int nr_expedited;     /* blkcg_expedite_begin()s in force; atomic */
	/* programs' shared mappings of the file (the system-call layer's areas), for rmap */
	spinlock_t i_mmap_lock;
	struct list_head i_mmap;
};

struct readahead_control {
	struct file *file;
	struct address_space *mapping;
	pgoff_t index;         /* first page */
	unsigned int nr_pages; /* in all the folios */
	unsigned int nr_folios;
	struct folio **folios; /* the locked folios to read, in index order */
};

/**
 * address_space_init() - set up an inode's page cache mapping, empty
 * @mapping: the mapping (cleared first)
 * @host: the inode it belongs to, or NULL for a mapping without one
 *
 * Allocations for it default to GFP_KERNEL (mapping->gfp_mask).
 *
 * Context: any context; never sleeps.
 */
void address_space_init(struct address_space *mapping, struct inode *host);
static inline bool mapping_tagged(struct address_space *mapping, xa_mark_t tag)
{
	return xa_marked(&mapping->i_pages, tag);
}
/**
 * mapping_set_error() - record a writeback error on a mapping
 * @mapping: the mapping whose page could not be written
 * @err: the negative errno; 0 records nothing
 *
 * The error is kept for the next fsync of the file (filemap_check_errors()) and the next
 * syncfs or umount of its filesystem, each reporting it once (Linux's errseq on the
 * mapping and on the superblock). The first error is the one reported.
 *
 * Context: any context, IO completion included; never sleeps.
 */
void mapping_set_error(struct address_space *mapping, int err);
/* Return (and clear) the recorded writeback error. */
int filemap_check_errors(struct address_space *mapping);

/* ---------------------------------------------------------------- page lock and waits */
/**
 * lock_page() - lock a page, waiting for its holder
 * @page: the page
 *
 * The wait is an IO wait (pressure stall information counts it as such, as Linux's
 * io_schedule()), and IO in the waiter's own plug is sent before it sleeps.
 *
 * Context: process context; may sleep; must not hold the page lock already.
 */
void lock_page(struct page *page);
int lock_page_killable(struct page *page);
/**
 * trylock_page() - lock a page if nobody holds it
 * @page: the page (any page of a folio names the folio's lock)
 *
 * Return: true if the caller now holds the lock, false if someone else did.
 *
 * Context: any context; never sleeps.
 */
bool trylock_page(struct page *page);
/**
 * unlock_page() - unlock a page and wake its waiters
 * @page: the page, locked (unlocking a page that is not locked panics)
 *
 * Context: any context, read completion included; never sleeps.
 */
void unlock_page(struct page *page);
void wait_on_page_locked(struct page *page);
void wait_on_page_writeback(struct page *page);
/* Wake waiters of a page bit (lock or writeback); used by the state helpers. */
void wake_up_page(struct page *page);
/* A folio's lock and waits are its head page's (any of its pages names the same lock). */
static inline void folio_lock(struct folio *folio)
{
	lock_page(&folio->page);
}
static inline bool folio_trylock(struct folio *folio)
{
	return trylock_page(&folio->page);
}
static inline void folio_unlock(struct folio *folio)
{
	unlock_page(&folio->page);
}
static inline void folio_wait_writeback(struct folio *folio)
{
	wait_on_page_writeback(&folio->page);
}

/* ---------------------------------------------------------------- lookup and insertion */
/*
 * The page cache holds folios: one page, or a compound page of 2^order pages at an index
 * aligned to its size. The page interface below names one page of a folio (find_get_page()
 * on a large folio gives the page at the index asked for, with a reference on the folio);
 * a caller that reads ->index or ->mapping of what it got must go by the folio
 * (page_folio()), since a tail page has neither.
 */
/**
 * filemap_get_folio() - look up the folio that caches an index
 * @mapping: the mapping
 * @index: any index the folio covers
 *
 * Lockless, as find_get_page().
 *
 * Context: any context; never sleeps.
 * Return: the folio with a reference, or NULL.
 */
struct folio *filemap_get_folio(struct address_space *mapping, pgoff_t index);
/* Same, locked and still in the mapping, covering @index. */
struct folio *filemap_lock_folio(struct address_space *mapping, pgoff_t index);
/**
 * filemap_add_folio() - insert a new locked folio into the page cache
 * @mapping: the mapping
 * @folio: the folio, locked, not in any mapping
 * @index: its first index: a multiple of its number of pages
 * @gfp: how to allocate the tree's nodes and whether the charge may wait
 *
 * The folio is charged whole to the current task's memory cgroup, takes a reference for
 * the cache and goes on its LRU list.
 *
 * Context: process context; may sleep if @gfp allows blocking.
 * Return: 0; -EEXIST if one of its indexes is cached already; -ENOMEM.
 */
int filemap_add_folio(struct address_space *mapping, struct folio *folio, pgoff_t index, gfp_t gfp);
/**
 * filemap_remove_folio() - take a locked folio out of its mapping
 * @folio: the folio, locked, not under writeback
 *
 * A dirty folio's dirty accounting is undone. It stays on its LRU list and charged until
 * its last reference goes.
 *
 * Context: process context; never sleeps.
 */
void filemap_remove_folio(struct folio *folio);
/**
 * split_folio() - split a large page-cache folio into single pages
 * @folio: the folio, locked, with a reference of the caller's
 *
 * Only a folio that nothing else holds is split: not under writeback, without private
 * state, mapped by no program, with no reference but the cache's and the caller's. Each
 * page then is a page of the cache of its own, with the folio's state (uptodate, dirty,
 * on its LRU list, charged to its memcg) and, for the caller, locked and referenced: the
 * caller unlocks and puts each, the first (the folio's head) as it would have the folio.
 *
 * Context: process context; never sleeps.
 * Return: 0 (also for a folio of one page), or -EBUSY, the folio left as it was.
 */
int split_folio(struct folio *folio);
/* Where a tagged search from index begins: the first index of a folio covering it. */
pgoff_t page_cache_folio_start(struct address_space *mapping, pgoff_t index);
static inline void mapping_set_large_folios(struct address_space *mapping)
{
	mapping->flags |= 1UL << AS_LARGE_FOLIO_SUPPORT;
}
static inline bool mapping_large_folio_support(const struct address_space *mapping)
{
	return mapping->flags & (1UL << AS_LARGE_FOLIO_SUPPORT);
}
/* What one step of a buffered write may cover: a folio as large as the mapping takes. */
static inline size_t mapping_max_folio_size(const struct address_space *mapping)
{
	return mapping_large_folio_support(mapping) ? PAGE_SIZE << MAX_PAGECACHE_ORDER : PAGE_SIZE;
}
/**
 * filemap_grab_folio() - the locked folio that caches an index, created for a write
 * @mapping: the mapping
 * @index: the index
 * @len: how many bytes from @index the write will fill: a new folio covers no more than
 *       that (nor any page cached already), starts at @index and is as large as the
 *       mapping takes (mapping_large_folio_support(); else one page)
 * @gfp: how to allocate it and its place in the cache
 *
 * Context: process context; may sleep.
 * Return: the folio, locked, with a reference; or an ERR_PTR.
 */
struct folio *filemap_grab_folio(struct address_space *mapping, pgoff_t index, size_t len, gfp_t gfp);
/* The page of folio that caches index. */
static inline struct page *folio_file_page(struct folio *folio, pgoff_t index)
{
	return folio_page(folio, index & (folio_nr_pages(folio) - 1));
}
/**
 * find_get_page() - look up a page of the page cache
 * @mapping: the mapping
 * @index: the page's index in it
 *
 * Lockless, as Linux's filemap_get_entry(): the page is taken with a speculative
 * reference, kept only if it is still at @index afterwards. It may be truncated at any
 * time after: a caller that needs it to stay locks it and checks page->mapping.
 *
 * Context: any context; never sleeps.
 * Return: the page with a reference, or NULL if there is none at @index.
 */
struct page *find_get_page(struct address_space *mapping, pgoff_t index);
/* Same, locked and still in the mapping. */
struct page *find_lock_page(struct address_space *mapping, pgoff_t index);
/**
 * find_or_create_page() - look up a page of the page cache, creating it if absent
 * @mapping: the mapping
 * @index: the page's index in it
 * @gfp: how to allocate the new page and its place in the cache
 *
 * A new page is not uptodate; it is charged to the current task's memory cgroup and put
 * on its LRU list.
 *
 * Context: process context; may sleep (lock_page(), and @gfp's allocations).
 * Return: the page, locked, with a reference; or an ERR_PTR (-ENOMEM, or the error of
 * inserting it in the cache).
 */
struct page *find_or_create_page(struct address_space *mapping, pgoff_t index, gfp_t gfp);
void delete_from_page_cache(struct page *page);
/**
 * read_mapping_page() - an uptodate page of the page cache, read if needed
 * @mapping: the mapping
 * @index: the page's index in it
 * @file: the file passed to ->readpage(), or NULL
 *
 * Finds or creates the page and, if it is not uptodate, reads it through the mapping's
 * ->readpage() and waits for the read.
 *
 * Context: process context; may sleep.
 * Return: the page, unlocked and uptodate, with a reference; or an ERR_PTR: -ENOMEM,
 * ->readpage()'s error, or -EIO if the read failed.
 */
struct page *read_mapping_page(struct address_space *mapping, pgoff_t index, struct file *file);
/**
 * filemap_fault_page() - the page a fault on a file mapping needs
 * @file: the mapped file
 * @index: the page's index in the file
 *
 * A page not in the cache brings its neighbours with it (Linux's read-around: a window
 * centred on the fault); a cached page whose successor half a window on is missing starts
 * the next window without waiting for it.
 *
 * Context: process context; may sleep.
 * Return: the page, uptodate, with a reference; or an ERR_PTR as read_mapping_page().
 */
struct page *filemap_fault_page(struct file *file, pgoff_t index);
/* Up to nr pages from *start with tag (references taken); advances *start past the last. */
unsigned int find_get_pages_tag(struct address_space *mapping, pgoff_t *start, pgoff_t end,
				xa_mark_t tag, unsigned int nr, struct page **pages);
/**
 * find_get_pages_range() - the pages a mapping caches in a range of indexes
 * @mapping: the mapping
 * @start: the first index; advanced past the last page returned
 * @end: the last index (inclusive)
 * @nr: at most this many pages
 * @pages: where they go, each with a reference the caller puts
 *
 * Context: any context that may take the mapping's i_pages lock; never sleeps.
 * Return: the number of pages found (0: none cached in the range).
 */
unsigned int find_get_pages_range(struct address_space *mapping, pgoff_t *start, pgoff_t end,
				  unsigned int nr, struct page **pages);

/* ---------------------------------------------------------------- generic file IO */
/**
 * generic_file_read() - read a file through the page cache
 * @file: the file
 * @buf: the kernel buffer to copy into
 * @len: how many bytes to read at most
 * @pos: the file position; advanced past what was read
 *
 * Stops at the end of file. Missing pages are read ahead of the reader (the file's
 * readahead window), and a reader reaching the window's trigger page starts the next one.
 *
 * Context: process context; may sleep.
 * Return: the bytes read (0 at the end of file); or, when nothing was read, a negative
 * errno: -EINTR on a fatal signal, or the read's error (-EIO, -ENOMEM).
 */
ssize_t generic_file_read(struct file *file, char *buf, size_t len, loff_t *pos);
/**
 * generic_file_write() - write to a file through the page cache
 * @file: the file (O_APPEND writes at the end of file, O_DSYNC syncs the range written)
 * @buf: the kernel buffer to copy from
 * @len: how many bytes to write
 * @pos: the file position; advanced past what was written
 *
 * Takes the inode's i_rwsem, updates mtime and ctime, and copies through the mapping's
 * ->write_begin() and ->write_end() (generic_perform_write()), throttling the writer as
 * it dirties pages (balance_dirty_pages_ratelimited()).
 *
 * Context: process context; may sleep; must not hold the inode's i_rwsem.
 * Return: the bytes written; or a negative errno: -EFBIG at or past the filesystem's
 * maximum size, the error of the first page when nothing was written, or the sync's
 * error for O_DSYNC.
 */
ssize_t generic_file_write(struct file *file, const char *buf, size_t len, loff_t *pos);
/**
 * file_update_time() - a write is about to change a file's data
 * @file: the file (write(2), or a store through a mapping)
 *
 * mtime and ctime become now, and the inode is marked dirty for them: only its lazy
 * timestamps (I_DIRTY_TIME) on a lazytime filesystem, as Linux's generic_update_time().
 *
 * Context: process context with the inode's i_rwsem held.
 */
void file_update_time(struct file *file);
/**
 * generic_perform_write() - the copy loop of generic_file_write()
 * @file: the file
 * @buf: the kernel buffer to copy from
 * @len: how many bytes to write
 * @pos: the file position to write at
 *
 * Copies page by page through ->write_begin() and ->write_end(), and throttles the writer
 * after each page (balance_dirty_pages_ratelimited()). For filesystems with their own
 * checks around it; it neither takes i_rwsem nor updates the times.
 *
 * Context: process context with the inode's i_rwsem held; may sleep.
 * Return: the bytes written; or, when nothing was written, a negative errno: -EINTR on a
 * fatal signal, or ->write_begin()'s or ->write_end()'s error.
 */
ssize_t generic_perform_write(struct file *file, const char *buf, size_t len, loff_t pos);
int generic_file_fsync(struct file *file, loff_t start, loff_t end, int datasync);
/**
 * simple_write_begin() - ->write_begin() for pages that need no block preparation
 * @file: the file (unused)
 * @mapping: the mapping written
 * @pos: the file position of the write
 * @len: the bytes written in this page
 * @pagep: set to the page to copy into
 * @fsdata: unused
 *
 * For filesystems without backing store (ramfs): the parts of a new page the write does
 * not cover are zeroed.
 *
 * Context: process context; may sleep.
 * Return: 0 with *@pagep locked and referenced, or the negative errno of
 * find_or_create_page().
 */
int simple_write_begin(struct file *file, struct address_space *mapping, loff_t pos,
		       unsigned int len, struct page **pagep, void **fsdata);
/**
 * simple_write_end() - ->write_end() for pages that need no block preparation
 * @file: the file (unused)
 * @mapping: the mapping written
 * @pos: the file position of the write
 * @len: the bytes asked for (unused)
 * @copied: the bytes copied
 * @page: the page from simple_write_begin()
 * @fsdata: unused
 *
 * Marks the page uptodate and dirty, grows i_size to cover the write, then unlocks the
 * page and drops the reference simple_write_begin() took.
 *
 * Context: process context with the inode's i_rwsem held.
 * Return: @copied.
 */
int simple_write_end(struct file *file, struct address_space *mapping, loff_t pos, unsigned int len,
		     unsigned int copied, struct page *page, void *fsdata);

/* ---------------------------------------------------------------- truncation */
/**
 * truncate_inode_pages() - remove a mapping's pages from an offset to the end
 * @mapping: the mapping
 * @lstart: the offset in bytes; a page it falls inside keeps its head, its tail zeroed
 *
 * Waits for pages under writeback; dirty pages are cancelled (their dirty accounting
 * undone).
 *
 * Context: process context; may sleep.
 */
void truncate_inode_pages(struct address_space *mapping, loff_t lstart);
void truncate_inode_pages_range(struct address_space *mapping, loff_t lstart, loff_t lend);
/**
 * invalidate_mapping_pages() - drop the clean, unused pages of a range of a mapping
 * @mapping: the mapping
 * @start: the first page index
 * @end: the last page index (inclusive)
 *
 * A page is dropped only if it is not dirty, not under writeback, its buffers (if any)
 * could be released and no one else holds a reference; locked pages are skipped.
 *
 * Context: process context; may sleep.
 * Return: the number of pages dropped.
 */
unsigned long invalidate_mapping_pages(struct address_space *mapping, pgoff_t start, pgoff_t end);

/* ---------------------------------------------------------------- writeback of a mapping */
/**
 * __filemap_fdatawrite_range() - start writeback of a range of a mapping's dirty pages
 * @mapping: the mapping
 * @start: the first byte
 * @end: the last byte (inclusive)
 * @sync_mode: WB_SYNC_ALL waits for a page already under writeback, then writes it if it
 *             is dirty again; WB_SYNC_NONE skips such pages
 *
 * The IO is the inode's wb's (its io cgroup's), whoever asks for it, as in Linux. Nothing
 * waits for the IO started here (filemap_fdatawait_range() does). Does nothing for a
 * mapping without an inode or on a device without writeback.
 *
 * Context: process context; may sleep.
 * Return: 0, or the first negative errno of the writes.
 */
int __filemap_fdatawrite_range(struct address_space *mapping, loff_t start, loff_t end,
			       enum writeback_sync_modes sync_mode);
int filemap_fdatawrite_range(struct address_space *mapping, loff_t start, loff_t end);
/**
 * filemap_fdatawait_range() - wait for a range of a mapping's pages under writeback
 * @mapping: the mapping
 * @start: the first byte
 * @end: the last byte (inclusive); the wait ends at the end of file as it is when the wait
 *       begins, so a writer that keeps appending does not keep the waiter waiting
 *
 * Then reports (and clears) the writeback error recorded on the mapping.
 *
 * Context: process context; may sleep.
 * Return: 0, or the recorded writeback error (filemap_check_errors()).
 */
int filemap_fdatawait_range(struct address_space *mapping, loff_t start, loff_t end);
/**
 * filemap_write_and_wait_range() - write a range of a mapping and wait for it
 * @mapping: the mapping
 * @start: the first byte
 * @end: the last byte (inclusive)
 *
 * Data-integrity writeback (WB_SYNC_ALL) of the range, then filemap_fdatawait_range().
 *
 * Context: process context; may sleep.
 * Return: 0, or the first negative errno of the writes, else of the wait.
 */
int filemap_write_and_wait_range(struct address_space *mapping, loff_t start, loff_t end);
static inline int filemap_write_and_wait(struct address_space *mapping)
{
	return filemap_write_and_wait_range(mapping, 0, (loff_t)(~0ULL >> 1));
}
/**
 * do_writepages() - write a mapping's dirty pages as a writeback control asks
 * @mapping: the mapping
 * @wbc: how many pages, which range, and the sync mode
 *
 * Through the mapping's ->writepages(), or ->writepage() page by page. An integrity round
 * (WB_SYNC_ALL) cannot give up for lack of memory: on -ENOMEM it waits and retries. The
 * write bandwidth estimate of the wb that writes is refreshed afterwards.
 *
 * Context: process context; may sleep.
 * Return: 0, or the negative errno of the writes.
 */
int do_writepages(struct address_space *mapping, struct writeback_control *wbc);
typedef int (*writepage_t)(struct page *page, struct writeback_control *wbc, void *data);
/**
 * write_cache_pages() - walk a mapping's dirty pages and write each
 * @mapping: the mapping
 * @wbc: the range (or range_cyclic from mapping->writeback_index), nr_to_write and sync mode
 * @fn: called for each page, locked and with its dirty bit cleared for IO; it unlocks the
 *      page (as ->writepage() does)
 * @data: passed to @fn
 *
 * An integrity round (WB_SYNC_ALL, or tagged_writepages) first tags the dirty pages of the
 * range TOWRITE and writes only those, so that pages dirtied meanwhile cannot keep it
 * going; it waits for pages already under writeback. A best-effort round skips those, and
 * stops when nr_to_write is spent or at the first error.
 *
 * Context: process context; may sleep.
 * Return: 0, or the first negative errno @fn returned.
 */
int write_cache_pages(struct address_space *mapping, struct writeback_control *wbc, writepage_t fn,
		      void *data);

/* ---------------------------------------------------------------- page dirty/writeback state */
/**
 * set_page_dirty() - mark a page dirty
 * @page: the page
 *
 * Through the mapping's ->set_page_dirty() if it has one, else
 * __set_page_dirty_nobuffers(): the page is tagged dirty in its mapping, accounted to its
 * memcg and to its inode's wb, and the inode marked dirty. A page without a mapping only
 * gets its flag.
 *
 * Context: the caller keeps the page from being truncated (page locked, or a reference on
 * a mapped page); never sleeps.
 * Return: true if the page was not dirty before.
 */
bool set_page_dirty(struct page *page);
bool __set_page_dirty_nobuffers(struct address_space *mapping, struct page *page);
/* Before writing a page: clear its dirty bit and move its count to "about to be written". */
bool clear_page_dirty_for_io(struct page *page);
/**
 * redirty_page_for_writepage() - a filesystem declined to write a dirty page now
 * @wbc: the writeback control of the round (counts the page in pages_skipped)
 * @page: the locked page, its dirty bit cleared for IO
 *
 * The page is dirty again; as this is no new dirtying, the counts of pages dirtied
 * (the task's, the node's and the wb's) are not raised.
 *
 * Context: the page is locked; never sleeps.
 */
void redirty_page_for_writepage(struct writeback_control *wbc, struct page *page);
/**
 * set_page_writeback() - a page's writeback starts
 * @page: the locked page (setting writeback on a page already under writeback panics)
 *
 * Tags it under writeback in its mapping (and no longer dirty or to-write unless dirty
 * again), counts it under writeback for its wb, memcg and node, and puts its inode on the
 * superblock's list of inodes under writeback at its first such page.
 *
 * Context: any context; takes the mapping's i_pages lock (irq-safe); never sleeps.
 */
void set_page_writeback(struct page *page);
/**
 * end_page_writeback() - a page's writeback ended
 * @page: the page under writeback (ending it for a page not under writeback panics)
 *
 * Undoes set_page_writeback()'s tag and counts, counts a completion for the wb's share of
 * its domains, and wakes the page's waiters. At the inode's last such page the inode
 * leaves the superblock's list and the wb's bandwidth is refreshed a little later.
 *
 * Context: any context, bio completion in interrupt context included; never sleeps.
 */
void end_page_writeback(struct page *page);
/* Truncate of a dirty page: undo its dirty accounting. */
void cancel_dirty_page(struct page *page);

/* ---------------------------------------------------------------- writers */
/**
 * balance_dirty_pages_ratelimited() - throttle a task that dirtied pages
 * @mapping: the mapping it dirtied pages of
 *
 * Called after each page a task dirties. The check runs once the task has dirtied its
 * ratelimit (current->nr_dirtied_pause) or its CPU ratelimit_pages; it then pauses the task
 * (balance_dirty_pages()) as the dirty pages of the wb of its memcg on the device, and of
 * their domains, call for, and applies io.cost's delay for the group's IO debt. Does
 * nothing on a device without writeback or a mapping that is not accounted.
 *
 * Context: process context, no spinlock held; may sleep.
 */
void balance_dirty_pages_ratelimited(struct address_space *mapping);

#endif
