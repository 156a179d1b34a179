/*
 * Regular files: reads and writes go through the page cache (the generic paths call our
 * address_space operations) or, with O_DIRECT, straight to the blocks (direct.c); fsync
 * makes a file's data and metadata durable.
 */
#include "ext2.h"
#include <cgwb/writeback.h>
#include <cgwb/blkdev.h>
#include <cgwb/pagemap.h>
#include <cgwb/errno.h>

/*
 * O_DIRECT: what direct IO leaves (a hole of a journalled block-mapped file, a transfer
 * not on whole blocks, a page that stays cached) goes through the page cache, which is
 * then written and dropped, as Linux's direct_write_fallback(): the caller finds its data
 * on disk as if all of it had gone directly.
 */
static ssize_t ext2_file_write_direct(struct file *file, const char *buf, size_t len, loff_t *pos)
{
	struct address_space *mapping = file->f_mapping;
	ssize_t done = ext2_direct_write(file, buf, len, pos), more;
	loff_t start = *pos;
	int err;

	if (done == -ENOTBLK)
		done = 0;
	if (done < 0 || (size_t)done == len)
		goto sync;
	more = generic_file_write(file, buf + done, len - (size_t)done, pos);
	if (more <= 0)
		return done ? done : more;
	start = *pos - more;
	err = filemap_write_and_wait_range(mapping, start, *pos - 1);
	if (err)
		return done ? done : err;
	invalidate_mapping_pages(mapping, (pgoff_t)(start >> PAGE_SHIFT),
				 (pgoff_t)((*pos - 1) >> PAGE_SHIFT));
	return done + more; /* generic_file_write() made O_DSYNC's part durable */
sync:
	if (done > 0 && (file->f_flags & O_DSYNC)) {
		err = vfs_fsync_range(file, *pos - done, *pos - 1, 0);
		if (err)
			return err;
	}
	return done;
}

static ssize_t ext2_file_write(struct file *file, const char *buf, size_t len, loff_t *pos)
{
	struct inode *inode = file->f_mapping->host;

	if (EXT2_I(inode)->i_flags & EXT2_IMMUTABLE_FL)
		return -EPERM;
	if ((EXT2_I(inode)->i_flags & EXT2_APPEND_FL) && !(file->f_flags & O_APPEND))
		return -EPERM;
	if ((file->f_flags & O_DIRECT) && len)
		return ext2_file_write_direct(file, buf, len, pos);
	return generic_file_write(file, buf, len, pos);
}

static ssize_t ext2_file_read(struct file *file, char *buf, size_t len, loff_t *pos)
{
	if (file->f_flags & O_DIRECT) {
		ssize_t n = ext2_direct_read(file, buf, len, pos);

		if (n != -ENOTBLK)
			return n;
	}
	return generic_file_read(file, buf, len, pos);
}

/*
 * Make durable every metadata change made before the call: the superblock (its free counts
 * brought up to date, so e2fsck agrees after a crash), every dirty metadata buffer of the
 * device, then the disk's cache. Concurrent callers share commits, as journalling
 * filesystems batch fsyncs: a commit that started after our call covers us, so a caller
 * that finds one in progress waits for it to end and then either finds itself covered by
 * the one that ran next or starts one for everyone who queued meanwhile. 256 groups
 * fsyncing at once then make a handful of commits, not 256 back to back.
 */
static int ext2_commit_metadata(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	u64 want = READ_ONCE(sbi->s_commits_started) + 1;
	int err, err2;

	mutex_lock(&sbi->s_commit_lock);
	if (sbi->s_commits_done >= want) {
		err = sbi->s_commit_err;
		mutex_unlock(&sbi->s_commit_lock);
		return err;
	}
	WRITE_ONCE(sbi->s_commits_started, sbi->s_commits_started + 1);
	ext2_write_super(sb);
	err = sync_blockdev(sb->s_bdev);
	err2 = blkdev_issue_flush(sb->s_bdev);
	sbi->s_commit_err = err ? err : err2;
	sbi->s_commits_done = sbi->s_commits_started;
	err = sbi->s_commit_err;
	mutex_unlock(&sbi->s_commit_lock);
	return err;
}

/*
 * The data pages (written through the inode's wb, so charged to its cgroup), the inode
 * itself, then a commit of the device's metadata: the file's indirect blocks are
 * among it, with the bitmaps and group descriptors its allocations changed (ext2 keeps no
 * per-inode list of its buffers; writing all of them is more than needed, never less).
 * For a directory the same makes its entries durable.
 */
int ext2_fsync(struct file *file, loff_t start, loff_t end, int datasync)
{
	struct inode *inode = file->f_mapping->host;
	struct super_block *sb = inode->i_sb;
	/*
	 * What a writer appends past the end of file once fsync has begun is not fsync's to
	 * write or wait for: a group that kept appending kept fsync writing its pages (at
	 * its own io.max rate) until it stopped. Bounded by the size fsync found.
	 */
	loff_t size = READ_ONCE(inode->i_size);
	int err = filemap_write_and_wait_range(inode->i_mapping, start, min(end, size - 1));
	int err2;

	/*
	 * The inode without i_rwsem, as Linux's ext4_sync_file() (its ext2 takes it): a writer
	 * that takes it for each write in a loop kept fsync out until it stopped. As Linux's
	 * __generic_file_fsync(), fdatasync leaves an inode whose data needs none of it (only
	 * its times changed: I_DIRTY_SYNC, or lazily, I_DIRTY_TIME).
	 */
	if (!err && (READ_ONCE(inode->i_state) & I_DIRTY_ALL) &&
	    !(datasync && !(READ_ONCE(inode->i_state) & I_DIRTY_DATASYNC)))
		err = sync_inode_metadata(inode, 1);

	/* delayed allocation: the data readable from disk (converted) in the commit below */
	ext2_unwritten_wait(file->f_mapping->host);
	err2 = EXT2_SB(sb)->s_family ? EXT2_SB(sb)->s_family->force_commit(sb) : 1;

	if (err2 == 1) /* no journal: the device's metadata, as ext2 */
		err2 = ext2_commit_metadata(sb);

	return err ? err : err2;
}

/* A writer's close gives its reservation window back, as Linux's ext2_release_file(). */
static int ext2_release_file(struct inode *inode, struct file *file)
{
	if ((file->f_flags & O_ACCMODE) != O_RDONLY)
		ext2_discard_reservation(inode);
	return 0;
}

const struct file_operations ext2_file_operations = {
	.read = ext2_file_read,
	.write = ext2_file_write,
	.llseek = generic_file_llseek,
	.fsync = ext2_fsync,
	.release = ext2_release_file,
	.fallocate = ext2_fallocate,
};

const struct inode_operations ext2_file_inode_operations = {
	.setattr = ext2_setattr,
};
