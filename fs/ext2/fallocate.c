/*
 * fallocate() of ext4's extent-mapped files, its allocating mode (Linux's ext4_fallocate()
 * and ext4_alloc_file_blocks()): the range's holes become unwritten extents, which read as
 * zeros until data written into them is converted (delayed allocation's writeback and
 * direct IO both do); without FALLOC_FL_KEEP_SIZE the file grows to cover the range, and
 * with it the extents may lie past the end, as Linux's. What is already mapped, written or
 * not, stays as it is.
 *
 * Not here, -EOPNOTSUPP: ext2's files and block-mapped files of ext4 (Linux has none for
 * them either); punching, zeroing, collapsing, inserting and unsharing ranges (not built);
 * a mount with nodelalloc (its writes through the page cache cannot fill unwritten extents
 * yet). A failure part way keeps what was allocated, as Linux's.
 */
#include "ext2.h"
#include <cgwb/file.h>
#include <cgwb/errno.h>

/* Up to want blocks from lblk mapped, holes allocated as unwritten: how many, or -errno. */
static int ext2_fallocate_run(struct inode *inode, sector_t lblk, unsigned long want)
{
	bool unwritten;
	u32 bno;
	int n = ext2_get_blocks_create(inode, lblk, want, &bno,
				       EXT2_GET_BLOCKS_UNWRIT | EXT2_GET_BLOCKS_DIO, &unwritten);

	return n ? n : -EIO;
}

/* The times change; without KEEP_SIZE the size grows to end (the disk's too: the blocks
 * read as zeros). */
static int ext2_fallocate_done(struct inode *inode, int mode, loff_t end)
{
	int err = ext2_journal_start(inode->i_sb);

	if (err)
		return err;
	inode->i_ctime = current_time(inode);
	if (!(mode & FALLOC_FL_KEEP_SIZE) && end > inode->i_size) {
		inode->i_mtime = inode->i_ctime;
		inode->i_size = end;
		ext2_update_disksize(inode, end);
	}
	mark_inode_dirty(inode);
	ext2_journal_stop(inode->i_sb);
	return 0;
}

long ext2_fallocate(struct file *file, int mode, loff_t offset, loff_t len)
{
	struct inode *inode = file->f_mapping->host;
	unsigned int bits = inode->i_blkbits;
	sector_t lblk = (sector_t)(offset >> bits), last = (sector_t)((offset + len - 1) >> bits);
	int n = 1;

	if (mode & ~FALLOC_FL_KEEP_SIZE)
		return -EOPNOTSUPP;
	if (!(EXT2_I(inode)->i_flags & EXT4_EXTENTS_FL) || !ext2_inode_delalloc(inode))
		return -EOPNOTSUPP;
	if (EXT2_I(inode)->i_flags & EXT2_IMMUTABLE_FL)
		return -EPERM;
	down_write(&inode->i_rwsem);
	while (lblk <= last && (n = ext2_fallocate_run(inode, lblk, last - lblk + 1)) > 0)
		lblk += (sector_t)n;
	if (n > 0)
		n = ext2_fallocate_done(inode, mode, offset + len);
	up_write(&inode->i_rwsem);
	return n < 0 ? n : 0;
}
