/*
 * Buffer heads: the blocks of a block device's page cache pages, for filesystem metadata
 * and for buffered access to the raw device (include/cgwb/buffer_head.h).
 *
 * A page with buffers has PG_private set, page->private pointing at the first buffer and
 * an extra page reference for them. Buffers are read one at a time on demand (or a whole
 * page when none is uptodate); a dirty buffer dirties its page, and writeback of the page
 * writes its dirty buffers, one bio per contiguous run, ending page writeback when the
 * last of them completes.
 */
#include <cgwb/buffer_head.h>
#include <cgwb/pagemap.h>
#include <cgwb/fs.h>
#include <cgwb/blkdev.h>
#include <cgwb/writeback.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/printk.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include "internal.h"

/*
 * Waiters for a buffer's lock sleep on one of a table of queues, hashed by the buffer (as
 * Linux's bit wait queues). With one queue for every buffer, each metadata IO completion
 * woke every task waiting for any buffer: the 256 fsyncs of 256 groups at once.
 */
#define BUFFER_WAIT_TABLE_BITS 6

static struct kmem_cache *bh_cache;
static wait_queue_head_t buffer_wait_table[1 << BUFFER_WAIT_TABLE_BITS];

void buffer_init(void)
{
	bh_cache = kmem_cache_create("buffer_head", sizeof(struct buffer_head), 8);
	BUG_ON(!bh_cache);
	for (size_t i = 0; i < ARRAY_SIZE(buffer_wait_table); i++)
		init_waitqueue_head(&buffer_wait_table[i]);
}

static wait_queue_head_t *buffer_waitqueue(const struct buffer_head *bh)
{
	return &buffer_wait_table[((uintptr_t)bh >> 6) * 0x9e3779b9UL >> 7 &
				  ((1 << BUFFER_WAIT_TABLE_BITS) - 1)];
}

static struct buffer_head *page_buffers(struct page *page)
{
	return (struct buffer_head *)page->private;
}

static bool test_set_buffer_locked(struct buffer_head *bh)
{
	return __atomic_fetch_or(&bh->b_state, 1UL << BH_Lock, __ATOMIC_SEQ_CST) & (1UL << BH_Lock);
}

void lock_buffer(struct buffer_head *bh)
{
	/* the IO we wait for may sit in our own plug: schedule() sends it first */
	if (test_set_buffer_locked(bh))
		io_wait_event(*buffer_waitqueue(bh), !test_set_buffer_locked(bh));
}

void unlock_buffer(struct buffer_head *bh)
{
	__atomic_fetch_and(&bh->b_state, ~(1UL << BH_Lock), __ATOMIC_SEQ_CST);
	smp_mb();
	if (waitqueue_active(buffer_waitqueue(bh)))
		wake_up_all(buffer_waitqueue(bh));
}

void wait_on_buffer(struct buffer_head *bh)
{
	if (buffer_locked(bh))
		io_wait_event(*buffer_waitqueue(bh), !buffer_locked(bh));
}

void get_bh(struct buffer_head *bh)
{
	__atomic_add_fetch(&bh->b_count, 1, __ATOMIC_SEQ_CST);
}

void brelse(struct buffer_head *bh)
{
	if (!bh)
		return;
	if (WARN_ON_ONCE(__atomic_sub_fetch(&bh->b_count, 1, __ATOMIC_SEQ_CST) < 0))
		bh->b_count = 0;
}

/* Give a page buffers of size bytes, mapped to their blocks of the device. Page locked. */
static int create_empty_buffers(struct page *page, struct block_device *bdev, unsigned int size)
{
	unsigned int per_page = PAGE_SIZE / size;
	struct buffer_head *bhs[PAGE_SIZE / SECTOR_SIZE];
	sector_t first = (sector_t)page->index * per_page;

	for (unsigned int i = 0; i < per_page; i++) {
		bhs[i] = kmem_cache_zalloc(bh_cache, GFP_NOFS | __GFP_NOFAIL);
		if (!bhs[i]) {
			while (i--)
				kmem_cache_free(bh_cache, bhs[i]);
			return -ENOMEM;
		}
	}
	for (unsigned int i = 0; i < per_page; i++) {
		struct buffer_head *bh = bhs[i];
		bh->b_page = page;
		bh->b_size = size;
		bh->b_data = (char *)page_address(page) + i * size;
		bh->b_blocknr = first + i;
		bh->b_bdev = bdev;
		bh->b_this_page = bhs[(i + 1) % per_page];
		set_buffer_mapped(bh);
		if (PageUptodate(page))
			set_buffer_uptodate(bh);
	}
	get_page(page); /* the buffers' reference */
	page->private = (unsigned long)bhs[0];
	SetPagePrivate(page);
	return 0;
}

/* Drop the page's buffers if none is busy. Page locked. */
static bool try_to_free_buffers(struct page *page)
{
	struct buffer_head *head = page_buffers(page), *bh = head;

	if (!PagePrivate(page))
		return true;
	bh_lru_evict(page);
	do {
		if (bh->b_count || buffer_dirty(bh) || buffer_locked(bh))
			return false;
		bh = bh->b_this_page;
	} while (bh != head);
	do {
		struct buffer_head *next = bh->b_this_page;
		kmem_cache_free(bh_cache, bh);
		bh = next;
	} while (bh != head);
	page->private = 0;
	ClearPagePrivate(page);
	put_page(page);
	return true;
}

struct buffer_head *__getblk(struct block_device *bdev, sector_t block, unsigned int size)
{
	unsigned int bits = (unsigned int)ilog2(size);
	pgoff_t index = (pgoff_t)(block >> (PAGE_SHIFT - bits));
	struct page *page;
	struct buffer_head *bh;

	if (WARN_ON_ONCE(size < SECTOR_SIZE || size > PAGE_SIZE || !is_power_of_2(size)))
		return NULL;
	if (((u64)block + 1) * size > (u64)bdev_nr_sectors(bdev) << SECTOR_SHIFT) {
		pr_err("%s: block %llu (size %u) is beyond the end of the device\n",
		       bdev->bd_disk->disk_name, (unsigned long long)block, size);
		return NULL;
	}
	bh = bh_lru_lookup(bdev, block, size);
	if (bh)
		return bh;
	/* as Linux's grow_dev_page(): metadata has nowhere else to go, so memory must come */
	page = find_or_create_page(bdev_mapping(bdev), index, GFP_NOFS | __GFP_NOFAIL);
	if (IS_ERR(page))
		return NULL;
	if (PagePrivate(page) && page_buffers(page)->b_size != size) {
		/* the block size changed (a new mount): old buffers go if they can */
		if (!try_to_free_buffers(page)) {
			pr_err("%s: busy buffers of another size at block %llu\n",
			       bdev->bd_disk->disk_name, (unsigned long long)block);
			unlock_page(page);
			put_page(page);
			return NULL;
		}
	}
	if (!PagePrivate(page) && create_empty_buffers(page, bdev, size)) {
		unlock_page(page);
		put_page(page);
		return NULL;
	}
	bh = page_buffers(page);
	for (sector_t b = (sector_t)index << (PAGE_SHIFT - bits); b != block; b++)
		bh = bh->b_this_page;
	get_bh(bh);
	unlock_page(page);
	put_page(page); /* the buffer's count keeps the page (try_to_free_buffers checks it) */
	bh_lru_install(bh);
	return bh;
}

static void end_buffer_read(struct bio *bio)
{
	struct buffer_head *bh = bio->bi_private;

	clear_buffer_verified(bh); /* what the disk gave is checked anew */
	if (!bio->bi_status)
		set_buffer_uptodate(bh);
	else
		clear_buffer_uptodate(bh);
	unlock_buffer(bh);
	bio_put(bio);
}

static struct bio *bh_bio(struct buffer_head *bh, unsigned int opf, bio_end_io_t *end_io)
{
	struct bio *bio = bio_alloc(bh->b_bdev, 1, opf, GFP_NOIO);

	bio->bi_sector = bh->b_blocknr * (bh->b_size >> SECTOR_SHIFT);
	bio_add_page(bio, bh->b_page, (unsigned int)bh->b_size,
		     (unsigned int)(bh->b_data - (char *)page_address(bh->b_page)));
	bio->bi_end_io = end_io;
	bio->bi_private = bh;
	return bio;
}

struct buffer_head *__bread(struct block_device *bdev, sector_t block, unsigned int size)
{
	struct buffer_head *bh = __getblk(bdev, block, size);

	if (!bh || buffer_uptodate(bh))
		return bh;
	lock_buffer(bh);
	if (buffer_uptodate(bh)) {
		unlock_buffer(bh);
		return bh;
	}
	submit_bio(bh_bio(bh, REQ_OP_READ | REQ_META | REQ_SYNC, end_buffer_read));
	wait_on_buffer(bh);
	if (buffer_uptodate(bh))
		return bh;
	pr_err("%s: I/O error reading block %llu\n", bdev->bd_disk->disk_name,
	       (unsigned long long)block);
	brelse(bh);
	return NULL;
}

struct buffer_head *sb_bread(struct super_block *sb, sector_t block)
{
	return __bread(sb->s_bdev, block, (unsigned int)sb->s_blocksize);
}

struct buffer_head *sb_getblk(struct super_block *sb, sector_t block)
{
	return __getblk(sb->s_bdev, block, (unsigned int)sb->s_blocksize);
}

void mark_buffer_dirty(struct buffer_head *bh)
{
	WARN_ON_ONCE(!buffer_uptodate(bh));
	if (buffer_dirty(bh))
		return;
	set_buffer_dirty(bh);
	set_page_dirty(bh->b_page);
}

static void end_buffer_sync_write(struct bio *bio)
{
	struct buffer_head *bh = bio->bi_private;

	if (bio->bi_status) {
		set_buffer_write_io_error(bh);
		mapping_set_error(bh->b_page->mapping, -EIO); /* the filesystem looks there */
		pr_err("%s: I/O error writing block %llu\n", bh->b_bdev->bd_disk->disk_name,
		       (unsigned long long)bh->b_blocknr);
	} else {
		clear_buffer_write_io_error(bh);
	}
	unlock_buffer(bh);
	bio_put(bio);
}

int sync_dirty_buffer(struct buffer_head *bh)
{
	lock_buffer(bh);
	if (!buffer_dirty(bh)) {
		unlock_buffer(bh);
		return 0;
	}
	clear_buffer_dirty(bh);
	get_bh(bh);
	submit_bio(bh_bio(bh, REQ_OP_WRITE | REQ_META | REQ_SYNC, end_buffer_sync_write));
	wait_on_buffer(bh);
	int err = buffer_write_io_error(bh) ? -EIO : 0;
	brelse(bh);
	return err;
}

void bforget(struct buffer_head *bh)
{
	if (!bh)
		return;
	clear_buffer_dirty(bh);
	brelse(bh);
}

/* ---------------------------------------------------------------- the page level */

/* One dirty buffer of a page written: end page writeback after the page's last one. */
static void end_buffer_async_write(struct bio *bio)
{
	struct buffer_head *bh = bio->bi_private, *head, *p;
	struct page *page = bh->b_page;
	bool busy = false;

	if (bio->bi_status) {
		set_buffer_write_io_error(bh);
		mapping_set_error(page->mapping, -EIO);
		pr_err("%s: I/O error writing block %llu\n", bh->b_bdev->bd_disk->disk_name,
		       (unsigned long long)bh->b_blocknr);
	}
	clear_buffer_async_write(bh);
	unlock_buffer(bh);
	head = p = page_buffers(page);
	do {
		busy |= buffer_async_write(p);
		p = p->b_this_page;
	} while (p != head);
	bio_put(bio);
	if (!busy)
		end_page_writeback(page);
}

/*
 * Write a locked page's dirty buffers (its dirty bit is already cleared for IO), a bio per
 * buffer (the block layer merges neighbours). The page is unlocked once the IO is under way.
 */
static int block_write_full_page(struct page *page, struct writeback_control *wbc)
{
	struct buffer_head *head, *bh;
	unsigned int opf = REQ_OP_WRITE;
	bool any = false;

	if (wbc->sync_mode == WB_SYNC_ALL)
		opf |= REQ_SYNC;
	else if (wbc->for_background || wbc->for_kupdate)
		opf |= REQ_BACKGROUND;
	if (PagePrivate(page)) {
		head = bh = page_buffers(page);
		do { /* claim them all first: completion checks who is still writing */
			lock_buffer(bh);
			if (buffer_dirty(bh) && buffer_mapped(bh)) {
				clear_buffer_dirty(bh);
				set_buffer_async_write(bh);
				any = true;
			} else {
				unlock_buffer(bh);
			}
			bh = bh->b_this_page;
		} while (bh != head);
	}
	set_page_writeback(page);
	unlock_page(page);
	if (!any) {
		/* dirtied without dirty buffers (they were written synchronously meanwhile) */
		end_page_writeback(page);
		return 0;
	}
	/* collect first: a completion may end the page's writeback while we walk */
	struct buffer_head *to_write[PAGE_SIZE / SECTOR_SIZE];
	unsigned int n = 0;
	bh = head;
	do {
		if (buffer_async_write(bh))
			to_write[n++] = bh;
		bh = bh->b_this_page;
	} while (bh != head);
	for (unsigned int i = 0; i < n; i++) {
		struct bio *bio = bh_bio(to_write[i], opf, end_buffer_async_write);
		wbc_init_bio(wbc, bio);
		wbc_account_cgroup_owner(wbc, page, to_write[i]->b_size);
		submit_bio(bio);
	}
	return 0;
}

static int blkdev_writepage(struct page *page, struct writeback_control *wbc)
{
	return block_write_full_page(page, wbc);
}

/* Read the page's buffers that are not uptodate: the whole page in one bio if none is. */
static void end_page_read(struct bio *bio)
{
	struct page *page = bio->bi_private;
	struct buffer_head *head = page_buffers(page), *bh = head;

	do {
		clear_buffer_verified(bh);
		if (!bio->bi_status)
			set_buffer_uptodate(bh);
		bh = bh->b_this_page;
	} while (bh != head);
	if (!bio->bi_status)
		SetPageUptodate(page);
	else
		pr_err("%s: I/O error reading page %lu\n", head->b_bdev->bd_disk->disk_name,
		       page->index);
	unlock_page(page);
	bio_put(bio);
}

static int blkdev_readpage(struct file *file, struct page *page)
{
	struct block_device *bdev = page->mapping->host->i_bdev;
	struct buffer_head *head, *bh;
	bool all_stale = true;

	(void)file;
	if (!PagePrivate(page) && create_empty_buffers(page, bdev, bdev->bd_block_size)) {
		unlock_page(page);
		return -ENOMEM;
	}
	head = bh = page_buffers(page);
	do {
		if (buffer_uptodate(bh) || buffer_dirty(bh))
			all_stale = false;
		bh = bh->b_this_page;
	} while (bh != head);

	if (all_stale) {
		struct bio *bio = bio_alloc(bdev, 1, REQ_OP_READ, GFP_NOIO);
		bio->bi_sector = (sector_t)page->index << (PAGE_SHIFT - SECTOR_SHIFT);
		bio_add_page(bio, page, PAGE_SIZE, 0);
		bio->bi_end_io = end_page_read;
		bio->bi_private = page;
		submit_bio(bio);
		return 0;
	}
	/* some buffers are newer in memory than on disk: read only the others */
	do {
		if (!buffer_uptodate(bh) && !buffer_dirty(bh)) {
			lock_buffer(bh);
			if (!buffer_uptodate(bh)) {
				submit_bio(bh_bio(bh, REQ_OP_READ, end_buffer_read));
				wait_on_buffer(bh);
			} else {
				unlock_buffer(bh);
			}
		}
		bh = bh->b_this_page;
	} while (bh != head);
	bool ok = true;
	do {
		ok &= buffer_uptodate(bh) || buffer_dirty(bh);
		bh = bh->b_this_page;
	} while (bh != head);
	if (ok)
		SetPageUptodate(page);
	unlock_page(page);
	return ok ? 0 : -EIO;
}

/* Buffered writes to the raw device: the buffers the write only partly covers are read first. */
static int blkdev_write_begin(struct file *file, struct address_space *mapping, loff_t pos,
			      unsigned int len, struct page **pagep, void **fsdata)
{
	struct block_device *bdev = mapping->host->i_bdev;
	pgoff_t index = (pgoff_t)(pos >> PAGE_SHIFT);
	unsigned int from = (unsigned int)(pos & (PAGE_SIZE - 1)), to = from + len;
	struct page *page = find_or_create_page(mapping, index, GFP_NOFS);
	struct buffer_head *head, *bh;
	unsigned int start = 0;

	(void)file;
	(void)fsdata;
	if (IS_ERR(page))
		return (int)PTR_ERR(page);
	if (!PagePrivate(page) && create_empty_buffers(page, bdev, bdev->bd_block_size)) {
		unlock_page(page);
		put_page(page);
		return -ENOMEM;
	}
	head = bh = page_buffers(page);
	do {
		unsigned int end = start + (unsigned int)bh->b_size;
		bool partial = (from > start && from < end) || (to > start && to < end);
		if (partial && !buffer_uptodate(bh)) {
			lock_buffer(bh);
			submit_bio(bh_bio(bh, REQ_OP_READ, end_buffer_read));
			wait_on_buffer(bh);
			if (!buffer_uptodate(bh)) {
				unlock_page(page);
				put_page(page);
				return -EIO;
			}
		}
		start = end;
		bh = bh->b_this_page;
	} while (bh != head);
	*pagep = page;
	return 0;
}

static int blkdev_write_end(struct file *file, struct address_space *mapping, loff_t pos,
			    unsigned int len, unsigned int copied, struct page *page, void *fsdata)
{
	unsigned int from = (unsigned int)(pos & (PAGE_SIZE - 1)), to = from + copied;
	struct buffer_head *head = page_buffers(page), *bh = head;
	unsigned int start = 0;
	bool all_uptodate = true;

	(void)file;
	(void)mapping;
	(void)len;
	(void)fsdata;
	do {
		unsigned int end = start + (unsigned int)bh->b_size;
		if (end > from && start < to) {
			set_buffer_uptodate(bh);
			mark_buffer_dirty(bh);
		}
		all_uptodate &= buffer_uptodate(bh);
		start = end;
		bh = bh->b_this_page;
	} while (bh != head);
	if (all_uptodate)
		SetPageUptodate(page);
	unlock_page(page);
	put_page(page);
	return (int)copied;
}

static void blkdev_invalidatepage(struct page *page, size_t offset, size_t length)
{
	struct buffer_head *head = page_buffers(page), *bh = head;
	size_t start = 0;

	do {
		size_t end = start + bh->b_size;
		if (start >= offset && end <= offset + length) {
			lock_buffer(bh);
			clear_buffer_dirty(bh);
			clear_buffer_uptodate(bh);
			unlock_buffer(bh);
		}
		start = end;
		bh = bh->b_this_page;
	} while (bh != head);
	if (offset == 0 && length == PAGE_SIZE)
		try_to_free_buffers(page);
}

static bool blkdev_releasepage(struct page *page, gfp_t gfp)
{
	(void)gfp;
	return try_to_free_buffers(page);
}

const struct address_space_operations def_blk_aops = {
	.readpage = blkdev_readpage,
	.writepage = blkdev_writepage,
	.write_begin = blkdev_write_begin,
	.write_end = blkdev_write_end,
	.invalidatepage = blkdev_invalidatepage,
	.releasepage = blkdev_releasepage,
};

int sync_blockdev(struct block_device *bdev)
{
	return filemap_write_and_wait(bdev_mapping(bdev));
}

void invalidate_bdev(struct block_device *bdev)
{
	bh_lru_evict(NULL); /* as Linux's invalidate_bh_lrus() */
	invalidate_mapping_pages(bdev_mapping(bdev), 0, ~0UL);
}
