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
#define AS_UNEVICTABLE 2 /* pages are never reclaimed (ramfs) */
#define AS_NO_ACCOUNT 3  /* not dirty-accounted (no backing device writeback) */

struct readahead_control;

/* Named as in Linux before folios (5.x): every operation takes a struct page. */
struct address_space_operations {
	/* Fill a locked page that is not uptodate, then unlock it (synchronously or at IO end). */
	int (*readpage)(struct file *file, struct page *page);
	/* Optional: start reads for ractl's pages (locked, in the cache), unlocking each at IO end. */
	void (*readahead)(struct readahead_control *ractl);
	/* Write one locked dirty page (clear_page_dirty_for_io already done); unlocks it. */
	int (*writepage)(struct page *page, struct writeback_control *wbc);
	/* Write many: defaults to write_cache_pages + writepage. */
	int (*writepages)(struct address_space *mapping, struct writeback_control *wbc);
	/* Mark a page dirty (defaults to __set_page_dirty_nobuffers); returns true if it was clean. */
	bool (*set_page_dirty)(struct address_space *mapping, struct page *page);
	/* Prepare [pos, pos+len) of a page for a copy from the writer: returns it locked. */
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
	pgoff_t index; /* first page */
	unsigned int nr_pages;
	struct page **pages; /* the locked pages to read, in index order */
};

void address_space_init(struct address_space *mapping, struct inode *host);
static inline bool mapping_tagged(struct address_space *mapping, xa_mark_t tag)
{
	return xa_marked(&mapping->i_pages, tag);
}
/*
 * A writeback error on mapping (any context): kept for the next fsync of the file and the
 * next syncfs or umount of its filesystem, each reporting it once (Linux's errseq on the
 * mapping and on the superblock).
 */
void mapping_set_error(struct address_space *mapping, int err);
/* Return (and clear) the recorded writeback error. */
int filemap_check_errors(struct address_space *mapping);

/* ---------------------------------------------------------------- page lock and waits */
void lock_page(struct page *page);
int lock_page_killable(struct page *page);
bool trylock_page(struct page *page);
void unlock_page(struct page *page);
void wait_on_page_locked(struct page *page);
void wait_on_page_writeback(struct page *page);
/* Wake waiters of a page bit (lock or writeback); used by the state helpers. */
void wake_up_page(struct page *page);

/* ---------------------------------------------------------------- lookup and insertion */
/* The page at index with a reference, or NULL. */
struct page *find_get_page(struct address_space *mapping, pgoff_t index);
/* Same, locked and still in the mapping. */
struct page *find_lock_page(struct address_space *mapping, pgoff_t index);
/* Locked page at index, created (not uptodate) if absent; ERR_PTR on allocation failure. */
struct page *find_or_create_page(struct address_space *mapping, pgoff_t index, gfp_t gfp);
/* Insert a new locked page (charged to the current task's memory cgroup). */
int add_to_page_cache_lru(struct page *page, struct address_space *mapping, pgoff_t index, gfp_t gfp);
void delete_from_page_cache(struct page *page);
/* An uptodate page at index, reading it through readpage if needed; ERR_PTR on error. */
struct page *read_mapping_page(struct address_space *mapping, pgoff_t index, struct file *file);
/* The page at index for a fault on a mapping of file (read around it if missing), uptodate
 * and referenced, or an ERR_PTR; may sleep. */
struct page *filemap_fault_page(struct file *file, pgoff_t index);
/* Up to nr pages from *start with tag (references taken); advances *start past the last. */
unsigned int find_get_pages_tag(struct address_space *mapping, pgoff_t *start, pgoff_t end,
				xa_mark_t tag, unsigned int nr, struct page **pages);
unsigned int find_get_pages_range(struct address_space *mapping, pgoff_t *start, pgoff_t end,
				  unsigned int nr, struct page **pages);

/* ---------------------------------------------------------------- generic file IO */
ssize_t generic_file_read(struct file *file, char *buf, size_t len, loff_t *pos);
ssize_t generic_file_write(struct file *file, const char *buf, size_t len, loff_t *pos);
/* A write is about to change the file's data (write(2), a store through a mapping): mtime
 * and ctime are now, the inode dirty for them. i_rwsem held. */
void file_update_time(struct file *file);
/* The write loop of generic_file_write, for filesystems with their own checks. */
ssize_t generic_perform_write(struct file *file, const char *buf, size_t len, loff_t pos);
int generic_file_fsync(struct file *file, loff_t start, loff_t end, int datasync);
/* write_begin/write_end for filesystems whose pages need no block preparation (ramfs). */
int simple_write_begin(struct file *file, struct address_space *mapping, loff_t pos,
		       unsigned int len, struct page **pagep, void **fsdata);
int simple_write_end(struct file *file, struct address_space *mapping, loff_t pos, unsigned int len,
		     unsigned int copied, struct page *page, void *fsdata);

/* ---------------------------------------------------------------- truncation */
/* Remove pages from lstart (bytes) to the end; waits for writeback; dirty pages cancelled. */
void truncate_inode_pages(struct address_space *mapping, loff_t lstart);
void truncate_inode_pages_range(struct address_space *mapping, loff_t lstart, loff_t lend);
/* Drop clean, unused pages of the mapping (cache shrink); returns the number. */
unsigned long invalidate_mapping_pages(struct address_space *mapping, pgoff_t start, pgoff_t end);

/* ---------------------------------------------------------------- writeback of a mapping */
/* Write the dirty pages of [start, end] (bytes, inclusive) as the inode's wb's IO; with
 * WB_SYNC_NONE pages already under writeback are skipped and nothing waits (may sleep). */
int __filemap_fdatawrite_range(struct address_space *mapping, loff_t start, loff_t end,
			       enum writeback_sync_modes sync_mode);
int filemap_fdatawrite_range(struct address_space *mapping, loff_t start, loff_t end);
/* Wait for the pages in range under writeback, up to the end of file when it begins. */
int filemap_fdatawait_range(struct address_space *mapping, loff_t start, loff_t end);
int filemap_write_and_wait_range(struct address_space *mapping, loff_t start, loff_t end);
static inline int filemap_write_and_wait(struct address_space *mapping)
{
	return filemap_write_and_wait_range(mapping, 0, (loff_t)(~0ULL >> 1));
}
/* Writeback entry point used by the flusher: ->writepages or write_cache_pages. */
int do_writepages(struct address_space *mapping, struct writeback_control *wbc);
typedef int (*writepage_t)(struct page *page, struct writeback_control *wbc, void *data);
/* Walk the dirty (or TOWRITE) pages per wbc, locking and cleaning each, calling fn. */
int write_cache_pages(struct address_space *mapping, struct writeback_control *wbc, writepage_t fn,
		      void *data);

/* ---------------------------------------------------------------- page dirty/writeback state */
bool set_page_dirty(struct page *page);
bool __set_page_dirty_nobuffers(struct address_space *mapping, struct page *page);
/* Before writing a page: clear its dirty bit and move its count to "about to be written". */
bool clear_page_dirty_for_io(struct page *page);
/* The filesystem declined to write a dirty page now: keep it dirty. */
void redirty_page_for_writepage(struct writeback_control *wbc, struct page *page);
/* Start/end writeback of a locked (start) page: tags, counters, waiters. */
void set_page_writeback(struct page *page);
void end_page_writeback(struct page *page);
/* Truncate of a dirty page: undo its dirty accounting. */
void cancel_dirty_page(struct page *page);

/* ---------------------------------------------------------------- writers */
/* Called after a task dirtied pages of mapping: may sleep to keep dirty memory in bounds. */
void balance_dirty_pages_ratelimited(struct address_space *mapping);

#endif
