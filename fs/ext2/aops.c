/*
 * Buffered writes into file pages, and the address_space operations of ext2 files.
 *
 * write_begin allocates the blocks the write covers (so a full disk fails the write(2)
 * itself with -ENOSPC), or with delayed allocation (ext4: delalloc.c) reserves them, and
 * makes the rest of the folio valid before the copy: blocks that were just allocated are
 * zeroed outside the written range, holes are zeroed, and old blocks the write only
 * partly covers are read. A delayed write takes no journal handle: it changes no
 * metadata buffer (i_size reaches the inode's buffer at the commit).
 *
 * Files take folios of up to 64 KiB (filemap_grab_folio(): as large as the write from its
 * first page), their blocks allocated (or reserved) for the whole write in the folio
 * first, in runs, then each page made valid.
 */
#include "data.h"
#include <cgwb/string.h>

/* Zero the parts of block slot i of page that lie outside [from, to). */
static void zero_outside(struct page *page, unsigned int bits, unsigned int i, unsigned int from,
			 unsigned int to)
{
	unsigned int start = i << bits, end = start + (1u << bits);
	char *addr = page_address(page);

	if (from > start)
		memset(addr + start, 0, min(from, end) - start);
	if (to < end)
		memset(addr + max(to, start), 0, end - max(to, start));
}

/* n blocks just allocated: data=ordered, the next commit writes them before it (ext4_jbd2.c) */
static void ext2_ordered_data(struct inode *inode, unsigned int n)
{
	const struct ext2_family_ops *family = ext2_family(inode->i_sb);

	EXT2_I(inode)->i_ordered_data = true;
	if (family && family->ordered_data)
		family->ordered_data(inode, n);
}

/*
 * Allocate (or find) the blocks of slots [i, last] that the write covers, slot 0 being
 * block first of the file: as long a run per call as the block map gives.
 */
static int ext2_alloc_write_blocks(struct inode *inode, sector_t first, unsigned int i,
				   unsigned int last, u32 *bno, bool *new)
{
	while (i <= last) {
		bool fresh;
		u32 b;
		int n = ext2_get_blocks(inode, first + i, last - i + 1, &b, EXT2_GET_BLOCKS_CREATE,
					&fresh);

		if (n < 0)
			return n;
		for (int j = 0; j < n; j++, i++) {
			bno[i] = b + (u32)j;
			new[i] = fresh;
		}
		if (fresh)
			ext2_ordered_data(inode, (unsigned int)n);
	}
	return 0;
}

/*
 * The blocks of page the write of [from, to) does not wholly cover are made valid: new
 * ones and holes zeroed outside the write, old ones it partly covers read (a page that is
 * not uptodate has each of its blocks read or zeroed). m is what is on disk, new[] the
 * blocks just allocated.
 */
static int ext2_fill_around_write(struct inode *inode, struct page *page, unsigned int from,
				  unsigned int to, bool uptodate, const struct ext2_page_map *m,
				  const bool *new)
{
	unsigned int bits = inode->i_blkbits;
	int err = 0;

	for (unsigned int i = 0; !err && i < m->blocks_per_page; i++) {
		unsigned int start = i << bits, end = start + (1u << bits);
		bool covered = from <= start && to >= end;

		if (new[i])
			zero_outside(page, bits, i, from, to);
		else if (uptodate || covered)
			continue;
		else if (!m->bno[i])
			zero_outside(page, bits, i, from, to);
		else
			err = ext2_read_run_sync(inode, page, i, m->bno[i], 1);
	}
	if (!err && !uptodate)
		ext2_zero_post_eof_outside(page, inode->i_size, from, to); /* the copy fills the rest */
	return err;
}

/*
 * What is on disk for the whole of a page that is not uptodate, past the end of file too. A
 * page that starts at or after the end of file has no blocks (ext2 keeps none there: a
 * failed write truncates them), so an append skips the walk down the block map.
 */
static int ext2_map_for_write(struct inode *inode, struct page *page, bool uptodate,
			      struct ext2_page_map *m, bool *mapped)
{
	loff_t pos = (loff_t)page_index(page) << PAGE_SHIFT;

	memset(m, 0, sizeof(*m));
	m->blocks_per_page = 1u << (PAGE_SHIFT - inode->i_blkbits);
	*mapped = !uptodate && pos < inode->i_size;
	return *mapped ? ext2_map_page(inode, page, pos + PAGE_SIZE, m) : 0;
}

static bool ext2_any_new(const bool *new, unsigned int n)
{
	while (n--)
		if (new[n])
			return true;
	return false;
}

/*
 * The page p of a large folio around its part of the write of [from, to) (folio offsets),
 * the write's blocks allocated: bno[] and new[] are the folio's.
 */
static int ext2_prepare_folio_page(struct inode *inode, struct folio *folio, unsigned long p,
				   size_t from, size_t to, bool uptodate, const u32 *bno,
				   const bool *new)
{
	unsigned int per_page = 1u << (PAGE_SHIFT - inode->i_blkbits);
	size_t start = p << PAGE_SHIFT, end = start + PAGE_SIZE;
	unsigned int pfrom = (unsigned int)(clamp(from, start, end) - start);
	unsigned int pto = (unsigned int)(clamp(to, start, end) - start);
	struct ext2_page_map m;
	bool mapped;
	int err;

	if (uptodate && (pfrom == pto || !ext2_any_new(new + p *per_page, per_page)))
		return 0; /* valid, and nothing new to zero */
	err = ext2_map_for_write(inode, folio_page(folio, p), uptodate, &m, &mapped);
	if (!err && !mapped)
		memcpy(m.bno, bno + p * per_page, per_page * sizeof(u32));
	return err ? err :
		     ext2_fill_around_write(inode, folio_page(folio, p), pfrom, pto, uptodate, &m,
					    new + p *per_page);
}

/*
 * The allocation for a large folio failed part way (a full disk): the blocks it got must
 * not show what was on the disk, so the folio is made valid as it was, those blocks
 * zeroed, and dirtied if any of them stays (inside the file: ext2_write_failed() frees the
 * rest). The caller splits it and writes a page at a time, so the disk fills to its last
 * block as with pages.
 */
static void ext2_folio_alloc_failed(struct inode *inode, struct folio *folio, const u32 *bno,
				    const bool *new)
{
	unsigned int per_page = 1u << (PAGE_SHIFT - inode->i_blkbits);
	unsigned long nr = folio_nr_pages(folio);
	bool uptodate = folio_test_uptodate(folio);

	for (unsigned long p = 0; !uptodate && p < nr; p++)
		if (ext2_prepare_folio_page(inode, folio, p, 0, 0, false, bno, new))
			return; /* not uptodate: it is read again before use */
	folio_set_uptodate(folio);
	for (unsigned long b = 0; b < nr * per_page; b++)
		if (new[b] &&
		    ((loff_t)(folio->index * per_page + b) << inode->i_blkbits) < inode->i_size) {
			set_page_dirty(&folio->page);
			break;
		}
}

/* Make a one-page folio valid around the write of [from, to) (page offsets). Page locked. */
static int ext2_prepare_write(struct inode *inode, struct page *page, unsigned int from,
			      unsigned int to)
{
	unsigned int bits = inode->i_blkbits, i = from >> bits, last = (to - 1) >> bits;
	bool new[EXT2_MAX_BLOCKS_PER_PAGE] = { false };
	bool uptodate = PageUptodate(page), mapped;
	struct ext2_page_map m;
	int err = ext2_map_for_write(inode, page, uptodate, &m, &mapped);

	if (!err && ext2_inode_delalloc(inode))
		err = ext2_da_prepare_blocks(inode, page_folio(page), i, last + 1,
					     mapped ? &m : NULL);
	else if (!err)
		err = ext2_alloc_write_blocks(inode, (sector_t)page->index << (PAGE_SHIFT - bits),
					      i, last, m.bno, new);
	if (err == -ENOSPC && !ext2_inode_delalloc(inode))
		ext2_folio_alloc_failed(inode, page_folio(page), m.bno, new);
	return err ? err : ext2_fill_around_write(inode, page, from, to, uptodate, &m, new);
}

/*
 * A large folio around the write of [from, to) (folio offsets): the blocks of the whole
 * write allocated (delayed: reserved) first, in runs, then each page made valid around
 * its part of it (a page outside the write: all of it, unless the folio is uptodate).
 */
static int ext2_prepare_write_folio(struct inode *inode, struct folio *folio, size_t from, size_t to)
{
	unsigned int bits = inode->i_blkbits, per_page = 1u << (PAGE_SHIFT - bits);
	u32 bno[EXT2_MAX_FOLIO_BLOCKS] = { 0 };
	bool new[EXT2_MAX_FOLIO_BLOCKS] = { false };
	bool uptodate = folio_test_uptodate(folio);
	int err;

	BUG_ON(folio_nr_pages(folio) * per_page > EXT2_MAX_FOLIO_BLOCKS);
	if (ext2_inode_delalloc(inode))
		err = ext2_da_prepare_blocks(inode, folio, (unsigned int)(from >> bits),
					     (unsigned int)((to - 1) >> bits) + 1, NULL);
	else
		err = ext2_alloc_write_blocks(inode, (sector_t)folio->index << (PAGE_SHIFT - bits),
					      (unsigned int)(from >> bits),
					      (unsigned int)((to - 1) >> bits), bno, new);
	if (err == -ENOSPC && !ext2_inode_delalloc(inode))
		ext2_folio_alloc_failed(inode, folio, bno, new);
	for (unsigned long p = 0; !err && p < folio_nr_pages(folio); p++)
		err = ext2_prepare_folio_page(inode, folio, p, from, to, uptodate, bno, new);
	return err;
}

/* A failed write must not leave blocks past the end of file (e2fsck would object). */
void ext2_write_failed(struct inode *inode, loff_t end)
{
	if (end > inode->i_size)
		ext2_truncate_blocks(inode, inode->i_size);
}

/*
 * Out of space while freed blocks wait for the commit that gives them back: have it, and
 * try again (at most 3 times), as Linux's ext4_should_retry_alloc(). No handle or page
 * lock may be held: the commit waits for every handle.
 */
static bool ext2_should_retry_alloc(struct super_block *sb, int *retries)
{
	const struct ext2_family_ops *family = ext2_family(sb);

	if (!family || !ext2_pending_frees(sb) || ++*retries > 3)
		return false;
	return family->force_commit(sb) == 0;
}

int ext2_get_blocks_create(struct inode *inode, sector_t iblock, unsigned long maxblocks, u32 *bno,
			   int flags, bool *new)
{
	int n, err, retries = 0;

	do {
		err = ext2_journal_start(inode->i_sb);
		if (err)
			return err;
		n = ext2_get_blocks(inode, iblock, maxblocks, bno, flags | EXT2_GET_BLOCKS_CREATE,
				    new);
		ext2_journal_stop(inode->i_sb);
	} while (n == -ENOSPC && ext2_should_retry_alloc(inode->i_sb, &retries));
	return n;
}

/* After a large folio's -ENOSPC: its pages apart, unlocked and put (*split set). */
static void ext2_split_after_enospc(struct folio *folio, bool *split)
{
	unsigned long nr = folio_nr_pages(folio);
	struct page *head = &folio->page;

	*split = !split_folio(folio);
	for (unsigned long p = 0; p < (*split ? nr : 1); p++) {
		unlock_page(head + p);
		put_page(head + p);
	}
}

/*
 * One try. small: a folio of one page (after a large one met a full disk); *split tells
 * the caller a large folio was split so that the write may go on a page at a time.
 */
static int ext2_write_begin_once(struct address_space *mapping, loff_t pos, unsigned int len,
				 bool small, struct page **pagep, void **fsdata, bool *split)
{
	struct inode *inode = mapping->host;
	unsigned int from = (unsigned int)(pos & (PAGE_SIZE - 1));
	bool delalloc = ext2_inode_delalloc(inode);
	struct folio *folio;
	struct page *page = NULL;
	int err;

	/* a handle from here to write_end: blocks and i_size in one transaction (the page's
	 * lock is taken after it, so a commit writing data pages never waits for a handle) */
	err = delalloc ? 0 : ext2_journal_start(inode->i_sb);
	if (err)
		return err;
	*fsdata = (void *)(unsigned long)delalloc; /* write_end stops what was started */
	folio = filemap_grab_folio(mapping, (pgoff_t)(pos >> PAGE_SHIFT),
				   small ? PAGE_SIZE : from + len, mapping->gfp_mask);
	if (IS_ERR(folio)) {
		err = (int)PTR_ERR(folio);
	} else {
		size_t at = (size_t)(pos - folio_pos(folio));

		page = folio_file_page(folio, (pgoff_t)(pos >> PAGE_SHIFT));
		err = folio_test_large(folio) ?
			      ext2_prepare_write_folio(inode, folio, at,
						       min(at + len, folio_size(folio))) :
			      ext2_prepare_write(inode, page, from,
						 (unsigned int)min((size_t)from + len, PAGE_SIZE));
		if (err == -ENOSPC && folio_test_large(folio)) {
			ext2_split_after_enospc(folio, split);
			if (!delalloc) /* delayed: nothing was allocated */
				ext2_write_failed(inode, pos + len);
		} else if (err) {
			unlock_page(page);
			put_page(page);
			if (!delalloc) /* delayed: nothing was allocated */
				ext2_write_failed(inode, pos + len);
		}
	}
	if (err) {
		if (!delalloc)
			ext2_journal_stop(inode->i_sb);
		return err;
	}
	*pagep = page;
	return 0;
}

static int ext2_write_begin(struct file *file, struct address_space *mapping, loff_t pos,
			    unsigned int len, struct page **pagep, void **fsdata)
{
	int err, retries = 0;
	bool small = false, split;

	(void)file;
	for (;;) {
		split = false;
		err = ext2_write_begin_once(mapping, pos, len, small, pagep, fsdata, &split);
		if (err != -ENOSPC)
			break;
		if (split && !small)
			small = true; /* the same again a page at a time */
		else if (!ext2_should_retry_alloc(mapping->host->i_sb, &retries))
			break;
	}
	return err;
}

/*
 * The file grew to end. Without delayed allocation its blocks are there (data=ordered
 * writes them before the commit): the disk may say the size at once. A delayed block
 * gets it at its conversion (io_end.c); a write that ends in a block already allocated
 * goes at once, as Linux's ext4_da_should_update_i_disksize(): no writeback will raise it.
 */
static void ext2_write_end_disksize(struct inode *inode, struct page *page, loff_t end)
{
	unsigned int slot = (unsigned int)(((end - 1) & (PAGE_SIZE - 1)) >> inode->i_blkbits);
	struct page *last = folio_file_page(page_folio(page), (pgoff_t)((end - 1) >> PAGE_SHIFT));

	if (!ext2_inode_delalloc(inode) || !(ext2_da_delayed(last) & (1UL << slot)))
		ext2_update_disksize(inode, end);
}

static int ext2_write_end(struct file *file, struct address_space *mapping, loff_t pos,
			  unsigned int len, unsigned int copied, struct page *page, void *fsdata)
{
	struct inode *inode = mapping->host;

	(void)file;
	if (copied == len)
		SetPageUptodate(page);
	else if (!PageUptodate(page))
		copied = 0; /* the page is not whole: the caller tries again */
	if (copied)
		set_page_dirty(page);
	if (pos + copied > inode->i_size) {
		inode->i_size = pos + copied;
		ext2_write_end_disksize(inode, page, pos + copied);
		mark_inode_dirty(inode);
	}
	unlock_page(page);
	put_page(page);
	if (!fsdata)
		ext2_journal_stop(inode->i_sb);
	return (int)copied;
}

/*
 * Before a file is cut to size or grown from it: the rest of the block holding byte size
 * must be zeros on disk, or they would show up again in the file as it grows. Done in the
 * page cache (the page is dirtied), so it reaches the disk with the file's data.
 */
int ext2_zero_tail(struct inode *inode, loff_t size)
{
	unsigned int bs = (unsigned int)inode->i_sb->s_blocksize;
	unsigned int offset = (unsigned int)(size & (PAGE_SIZE - 1));
	struct page *page;
	bool new;
	u32 bno;
	int n;

	if (!(size & (bs - 1)))
		return 0;
	n = ext2_get_blocks(inode, (sector_t)(size >> inode->i_blkbits), 1, &bno, 0, &new);
	if (n <= 0)
		return n; /* a hole reads as zeros already */
	page = read_mapping_page(inode->i_mapping, (pgoff_t)(size >> PAGE_SHIFT), NULL);
	if (IS_ERR(page))
		return (int)PTR_ERR(page);
	lock_page(page);
	if (page_folio(page)->mapping == inode->i_mapping) {
		memset((char *)page_address(page) + offset, 0, ALIGN(offset, bs) - offset);
		set_page_dirty(page);
	}
	unlock_page(page);
	put_page(page);
	return 0;
}

const struct address_space_operations ext2_aops = {
	.readpage = ext2_readpage,
	.readahead = ext2_readahead,
	.writepage = ext2_writepage,
	.writepages = ext2_writepages,
	.write_begin = ext2_write_begin,
	.write_end = ext2_write_end,
	.invalidatepage = ext2_da_invalidatepage,
	.releasepage = ext2_da_releasepage,
};
