/*
 * Regular files: reads and writes go through the page cache (the generic paths call our
 * address_space operations); fsync makes a file's data and metadata durable.
 */
#include "ext2.h"
#include <cgwb/blkdev.h>
#include <cgwb/pagemap.h>
#include <cgwb/errno.h>

static ssize_t ext2_file_write(struct file *file, const char *buf, size_t len, loff_t *pos)
{
	struct inode *inode = file->f_mapping->host;

	if (EXT2_I(inode)->i_flags & EXT2_IMMUTABLE_FL)
		return -EPERM;
	if ((EXT2_I(inode)->i_flags & EXT2_APPEND_FL) && !(file->f_flags & O_APPEND))
		return -EPERM;
	return generic_file_write(file, buf, len, pos);
}

/*
 * The data pages (written through the inode's wb, so charged to its cgroup) and the inode
 * itself, then every dirty metadata buffer of the device: the file's indirect blocks are
 * among them, with the bitmaps and group descriptors its allocations changed (ext2 keeps
 * no per-inode list of its buffers; writing all of them is more than needed, never less).
 * The superblock goes too, its free counts brought up to date. Then the disk's cache is
 * flushed. For a directory the same makes its entries durable.
 */
int ext2_fsync(struct file *file, loff_t start, loff_t end, int datasync)
{
	struct super_block *sb = file->f_mapping->host->i_sb;
	int err = generic_file_fsync(file, start, end, datasync);
	int err2, err3;

	ext2_write_super(sb); /* with up-to-date free counts, so e2fsck agrees after a crash */
	err2 = sync_blockdev(sb->s_bdev);
	err3 = blkdev_issue_flush(sb->s_bdev);

	if (err)
		return err;
	return err2 ? err2 : err3;
}

const struct file_operations ext2_file_operations = {
	.read = generic_file_read,
	.write = ext2_file_write,
	.llseek = generic_file_llseek,
	.fsync = ext2_fsync,
};

const struct inode_operations ext2_file_inode_operations = {
	.setattr = ext2_setattr,
};
