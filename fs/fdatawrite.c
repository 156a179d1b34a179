/*
 * A mapping's data written and waited for, for fsync, sync_file_range and O_DSYNC: the IO
 * goes to the inode's wb (its io cgroup), whoever asks for it, as in Linux
 * (wbc_attach_fdatawrite_inode()); the page-cache halves, do_writepages() and
 * filemap_fdatawait_range(), are mm/'s.
 */
#include <cgwb/fs.h>
#include <cgwb/pagemap.h>
#include <cgwb/backing-dev.h>
#include <cgwb/writeback.h>
#include <cgwb/mutex.h>

int __filemap_fdatawrite_range(struct address_space *mapping, loff_t start, loff_t end,
			       enum writeback_sync_modes sync_mode)
{
	struct writeback_control wbc = {
		.sync_mode = sync_mode,
		.nr_to_write = LONG_MAX,
		.range_start = start,
		.range_end = end,
	};
	int ret;

	if (!mapping->host || !bdi_cap_writeback(inode_to_bdi(mapping->host)) || end < start)
		return 0;
	wbc_attach_fdatawrite_inode(&wbc, mapping->host);
	ret = do_writepages(mapping, &wbc);
	wbc_detach_inode(&wbc);
	return ret;
}

int filemap_fdatawrite_range(struct address_space *mapping, loff_t start, loff_t end)
{
	return __filemap_fdatawrite_range(mapping, start, end, WB_SYNC_ALL);
}

int filemap_write_and_wait_range(struct address_space *mapping, loff_t start, loff_t end)
{
	int err = filemap_fdatawrite_range(mapping, start, end);
	int err2 = filemap_fdatawait_range(mapping, start, end);

	return err ? err : err2;
}

int generic_file_fsync(struct file *file, loff_t start, loff_t end, int datasync)
{
	struct inode *inode = file->f_mapping->host;
	int err = filemap_write_and_wait_range(inode->i_mapping, start, end);
	int err2;

	if (err)
		return err;
	down_write(&inode->i_rwsem);
	err2 = sync_inode_metadata(inode, 1);
	up_write(&inode->i_rwsem);
	(void)datasync;
	return err2;
}
