/*
 * Direct IO of regular files (O_DIRECT), as Linux's ext2 (blockdev_direct_IO()) and ext4
 * (iomap_dio_rw()): the data goes between the caller's buffer and the file's blocks with
 * no page cache between, in bios charged to the caller's io cgroup, which it waits for.
 *
 * - Alignment: offset, length and buffer on the device's logical block, or -EINVAL, as
 *   Linux. Aligned so but not on the file system's blocks, a transfer goes through the
 *   page cache (Linux zeroes the edges of a sub-block write itself): the same data, not
 *   the same IO.
 * - The page cache: the range's dirty pages are written and waited for first; a write
 *   then drops the range's pages, before and after its IO. A page that cannot go (mapped
 *   by a program, locked) sends the write through the page cache instead, as Linux's
 *   fallback when invalidate_inode_pages2_range() fails.
 * - Blocks: a read maps them (holes and unwritten extents read as zeros), a write
 *   allocates. ext4's extent files get unwritten extents for their holes, converted once
 *   the IO that fills them has completed, as Linux's: a crash between shows zeros, never
 *   a freed block's old data. A block-mapped file of a journalled mount fills its holes
 *   through the page cache, as Linux's ext4 (filling them directly could show that old
 *   data after a crash); ext2 fills them directly, as Linux's ext2.
 * - The size: a write past the end raises it once its IO completed; a failed one gives
 *   back the blocks it allocated past the end.
 * - Locking: i_rwsem, shared for reads and, on ext4, for writes that overwrite written
 *   blocks inside the size (as Linux's ext4: direct writers of one file's parts go side by
 *   side); exclusive for the others (they allocate, convert or grow the file) and for
 *   every write on ext2, as Linux's ext2.
 */
#include "data.h"
#include <cgwb/string.h>

/* Runs of blocks mapped and submitted before the batch is waited for */
#define EXT2_DIO_RUNS 16

struct ext2_dio {
	struct inode *inode;
	char *buf;
	loff_t pos;
	size_t len;
	struct {
		u32 lblk, len;
	} unwritten[EXT2_DIO_RUNS]; /* what a write's completion converts */
	unsigned int nr_unwritten;
};

/* On the device's logical blocks (else -EINVAL), and on the file system's blocks (else 0:
 * the page cache's). */
static int ext2_dio_aligned(struct inode *inode, const char *buf, size_t len, loff_t pos)
{
	unsigned int lbs = bdev_logical_block_size(inode->i_sb->s_bdev);
	unsigned int bs = (unsigned int)inode->i_sb->s_blocksize;

	if (!IS_ALIGNED((u64)pos | len | (uintptr_t)buf, lbs))
		return -EINVAL;
	return IS_ALIGNED((u64)pos | len, bs);
}

static bool ext2_extent_mapped(struct inode *inode)
{
	return EXT2_I(inode)->i_flags & EXT4_EXTENTS_FL;
}

/*
 * The run of blocks at iblock: its length (at most want), *bno (0 for a hole), whether it
 * is an unwritten extent; a write allocates holes. 0: a write's hole that the page cache
 * must fill (block-mapped, journalled).
 */
static int ext2_dio_map(struct inode *inode, sector_t iblock, unsigned long want, bool write,
			u32 *bno, bool *unwritten)
{
	bool extents = ext2_extent_mapped(inode), new = false;
	int flags = extents ? EXT2_GET_BLOCKS_UNWRIT : 0;
	int n;

	*unwritten = false;
	n = ext2_get_blocks(inode, iblock, want, bno, flags, &new);
	if (n || (write && !extents && ext2_family(inode->i_sb))) {
		*unwritten = extents && new;
		return n;
	}
	if (!write) {
		*bno = 0; /* a hole: one block of zeros */
		return 1;
	}
	n = ext2_get_blocks_create(inode, iblock, want, bno,
				   flags | (extents ? EXT2_GET_BLOCKS_DIO : 0), &new);
	*unwritten = extents && new;
	return n;
}

/* Remember an unwritten run the write fills, joined to the one before when it follows. */
static void ext2_dio_add_unwritten(struct ext2_dio *d, u32 lblk, u32 len)
{
	unsigned int n = d->nr_unwritten;

	if (n && d->unwritten[n - 1].lblk + d->unwritten[n - 1].len == lblk) {
		d->unwritten[n - 1].len += len;
		return;
	}
	d->unwritten[n].lblk = lblk;
	d->unwritten[n].len = len;
	d->nr_unwritten++;
}

/*
 * Map and submit up to EXT2_DIO_RUNS runs from d's position, and wait for them: the bytes
 * moved, or -errno. A write may stop early at a hole the page cache must fill.
 */
static ssize_t ext2_dio_runs(struct ext2_dio *d, bool write)
{
	struct inode *inode = d->inode;
	unsigned int bits = inode->i_blkbits;
	unsigned int opf = write ? REQ_OP_WRITE | REQ_SYNC : REQ_OP_READ;
	struct blk_batch b;
	size_t moved = 0;
	int err = 0;

	d->nr_unwritten = 0;
	blk_batch_start(&b);
	for (int runs = 0; moved < d->len && runs < EXT2_DIO_RUNS && !err; runs++) {
		sector_t iblock = (sector_t)((d->pos + (loff_t)moved) >> bits);
		char *at = d->buf + moved;
		bool unwritten;
		u32 bno;
		int n = ext2_dio_map(inode, iblock, (d->len - moved) >> bits, write, &bno,
				     &unwritten);

		if (n <= 0) {
			err = n;
			break;
		}
		if (!write && (!bno || unwritten))
			memset(at, 0, (size_t)n << bits);
		else
			err = blk_batch_add(&b, inode->i_sb->s_bdev, opf, at, (size_t)n << bits,
					    (sector_t)bno << (bits - SECTOR_SHIFT));
		if (write && unwritten)
			ext2_dio_add_unwritten(d, (u32)iblock, (u32)n);
		moved += (size_t)n << bits;
	}
	err = blk_batch_finish(&b, err);
	return err ? err : (ssize_t)moved;
}

/* A write's IO is on disk: its unwritten runs become written and the size covers it. */
static int ext2_dio_write_done(struct ext2_dio *d, loff_t end)
{
	struct inode *inode = d->inode;
	struct super_block *sb = inode->i_sb;
	int err;

	if (!d->nr_unwritten && end <= inode->i_size)
		return 0;
	err = ext2_journal_start(sb);
	if (err)
		return err;
	for (unsigned int i = 0; !err && i < d->nr_unwritten; i++)
		err = ext2_family(sb)->convert_unwritten(inode, d->unwritten[i].lblk,
							 d->unwritten[i].len);
	if (!err && end > inode->i_size) {
		inode->i_size = end;
		ext2_update_disksize(inode, end);
		mark_inode_dirty(inode);
	}
	ext2_journal_stop(sb);
	return err;
}

/* Dirty pages of the range to disk (and converted), and for a write the pages gone: false
 * if one stays (the write must go through the page cache). */
static bool ext2_dio_flush_cache(struct inode *inode, loff_t pos, size_t len, bool write)
{
	struct address_space *mapping = inode->i_mapping;
	pgoff_t first = (pgoff_t)(pos >> PAGE_SHIFT), last = (pgoff_t)((pos + len - 1) >> PAGE_SHIFT);
	struct page *page;

	if (filemap_write_and_wait_range(mapping, pos, pos + (loff_t)len - 1))
		return false; /* the page cache's path reports the error */
	ext2_unwritten_wait(inode);
	if (!write)
		return true;
	invalidate_mapping_pages(mapping, first, last);
	if (!find_get_pages_range(mapping, &first, last, 1, &page))
		return true;
	put_page(page);
	return false;
}

/*
 * Every block of the range mapped and written, inside the size: an overwrite, which other
 * direct writers may do beside it (i_rwsem shared, as Linux's ext4_overwrite_io()): it
 * allocates, converts and grows nothing.
 */
static bool ext2_dio_overwrite(struct inode *inode, loff_t pos, size_t len)
{
	unsigned int bits = inode->i_blkbits;
	sector_t iblock = (sector_t)(pos >> bits), end = (sector_t)((pos + (loff_t)len) >> bits);
	bool extents = ext2_extent_mapped(inode);

	if (pos + (loff_t)len > inode->i_size)
		return false;
	while (iblock < end) {
		bool unwritten = false;
		u32 bno;
		int n = ext2_get_blocks(inode, iblock, end - iblock, &bno,
					extents ? EXT2_GET_BLOCKS_UNWRIT : 0, &unwritten);

		if (n <= 0 || (extents && unwritten))
			return false;
		iblock += (sector_t)n;
	}
	return true;
}

static void ext2_dio_unlock(struct inode *inode, bool shared)
{
	if (shared)
		up_read(&inode->i_rwsem);
	else
		up_write(&inode->i_rwsem);
}

/*
 * i_rwsem for a direct write at *pos: on an ext4 mount shared for an overwrite, as Linux's
 * ext4; exclusive otherwise (an appending write always, and every write on ext2, whose
 * Linux takes it so through generic_file_write_iter()). Returns whether it is shared;
 * d->pos is where the write goes.
 */
static bool ext2_dio_write_lock(struct file *file, struct ext2_dio *d, size_t len, loff_t pos)
{
	struct inode *inode = d->inode;

	if (ext2_family(inode->i_sb) && !(file->f_flags & O_APPEND)) {
		down_read(&inode->i_rwsem);
		d->pos = pos;
		if (ext2_dio_aligned(inode, d->buf, len, pos) > 0 &&
		    ext2_dio_overwrite(inode, pos, len))
			return true;
		up_read(&inode->i_rwsem);
	}
	down_write(&inode->i_rwsem);
	d->pos = (file->f_flags & O_APPEND) ? inode->i_size : pos;
	return false;
}

/**
 * ext2_direct_write() - write a regular file with O_DIRECT
 * @file: the file
 * @buf: kernel memory
 * @len: bytes
 * @pos: where; advanced past what was written
 *
 * Context: process context; takes i_rwsem (shared for an overwrite); sleeps.
 * Return: the bytes written (fewer where a hole must be filled through the page cache),
 * -ENOTBLK when none could go directly, or -errno.
 */
ssize_t ext2_direct_write(struct file *file, const char *buf, size_t len, loff_t *pos)
{
	struct inode *inode = file->f_mapping->host;
	struct ext2_dio d = { .inode = inode, .buf = (char *)buf };
	bool shared = ext2_dio_write_lock(file, &d, len, *pos);
	int aligned = ext2_dio_aligned(inode, buf, len, d.pos);
	ssize_t done = 0, n = 0;
	loff_t start;

	if (aligned <= 0 || d.pos + (loff_t)len > inode->i_sb->s_maxbytes ||
	    !ext2_dio_flush_cache(inode, d.pos, len, true)) {
		ext2_dio_unlock(inode, shared);
		return aligned < 0 ? aligned : -ENOTBLK;
	}
	file_update_time(file);
	start = d.pos;
	while ((size_t)done < len) {
		d.len = len - (size_t)done;
		n = ext2_dio_runs(&d, true);
		if (n > 0)
			n = ext2_dio_write_done(&d, d.pos + n) ?: n;
		if (n <= 0)
			break;
		done += n;
		d.buf += n;
		d.pos += n;
	}
	if (n < 0)
		ext2_write_failed(inode, d.pos + (loff_t)d.len);
	if (done) /* what readahead may have brought in meanwhile is stale */
		invalidate_mapping_pages(inode->i_mapping, (pgoff_t)(start >> PAGE_SHIFT),
					 (pgoff_t)((d.pos - 1) >> PAGE_SHIFT));
	ext2_dio_unlock(inode, shared);
	*pos = d.pos;
	if (done)
		return done;
	return n < 0 ? n : -ENOTBLK;
}

/**
 * ext2_direct_read() - read a regular file with O_DIRECT
 * @file: the file
 * @buf: kernel memory
 * @len: bytes at most
 * @pos: where; advanced past what was read
 *
 * Context: process context; takes i_rwsem shared; sleeps.
 * Return: the bytes read (short at the end of file), -ENOTBLK when the page cache must
 * read it (not on the file system's blocks), or -errno.
 */
ssize_t ext2_direct_read(struct file *file, char *buf, size_t len, loff_t *pos)
{
	struct inode *inode = file->f_mapping->host;
	struct ext2_dio d = { .inode = inode, .buf = buf, .pos = *pos };
	size_t done = 0;
	loff_t size;
	ssize_t n = 0;
	int aligned;

	down_read(&inode->i_rwsem);
	size = inode->i_size;
	aligned = ext2_dio_aligned(inode, buf, len, *pos);
	if (*pos >= size || !len || aligned <= 0) { /* the end of file first, as Linux */
		up_read(&inode->i_rwsem);
		return (*pos >= size || !len) ? 0 : aligned < 0 ? aligned : -ENOTBLK;
	}
	len = (size_t)min((loff_t)len, round_up(size - *pos, (loff_t)inode->i_sb->s_blocksize));
	ext2_dio_flush_cache(inode, *pos, len, false);
	while (done < len && (d.len = len - done) && (n = ext2_dio_runs(&d, false)) > 0) {
		done += (size_t)n;
		d.buf += n;
		d.pos += n;
	}
	up_read(&inode->i_rwsem);
	if (!done)
		return n;
	done = (size_t)min((loff_t)done, size - *pos);
	*pos += (loff_t)done;
	return (ssize_t)done;
}
