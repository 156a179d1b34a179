/* Writing, seeking, syncing and reading directories through an open file. */
#include <cgwb/fs.h>
#include <cgwb/errno.h>
#include "vfs.h"

loff_t generic_file_llseek(struct file *file, loff_t offset, int whence)
{
	struct inode *inode = file->f_inode;
	loff_t pos;

	switch (whence) {
	case SEEK_SET:
		pos = offset;
		break;
	case SEEK_CUR:
		pos = file->f_pos + offset;
		break;
	case SEEK_END:
		pos = (inode ? inode->i_size : 0) + offset;
		break;
	default:
		return -EINVAL;
	}
	if (pos < 0 || (inode && pos > inode->i_sb->s_maxbytes))
		return -EINVAL;
	if (pos != file->f_pos) {
		file->f_pos = pos;
		file->f_ra.prev_index = ~0UL; /* a seek breaks the sequential pattern */
	}
	return pos;
}

loff_t vfs_llseek(struct file *file, loff_t offset, int whence)
{
	if (!file->f_op || !file->f_op->llseek)
		return -ESPIPE;
	return file->f_op->llseek(file, offset, whence);
}

int vfs_fsync_range(struct file *file, loff_t start, loff_t end, int datasync)
{
	struct inode *inode = file->f_inode;

	if (!file->f_op || !file->f_op->fsync)
		return -EINVAL;
	/* fsync (not fdatasync) makes lazy timestamps the inode's, to be written with it */
	if (!datasync && inode && (READ_ONCE(inode->i_state) & I_DIRTY_TIME))
		mark_inode_dirty_sync(inode);
	return file->f_op->fsync(file, start, end, datasync);
}

int vfs_fsync(struct file *file, int datasync)
{
	return vfs_fsync_range(file, 0, LLONG_MAX, datasync);
}

int iterate_dir(struct file *file, struct dir_context *ctx)
{
	struct inode *inode = file->f_inode;
	int err;

	if (!inode || !S_ISDIR(inode->i_mode) || !file->f_op->iterate)
		return -ENOTDIR;
	if (d_unhashed(file->f_path.dentry) && file->f_path.dentry->d_parent != file->f_path.dentry)
		return -ENOENT; /* removed: Linux lists nothing at all */
	down_read(&inode->i_rwsem);
	ctx->pos = file->f_pos;
	err = file->f_op->iterate(file, ctx);
	file->f_pos = ctx->pos;
	up_read(&inode->i_rwsem);
	return err;
}

ssize_t generic_file_write(struct file *file, const char *buf, size_t len, loff_t *ppos)
{
	struct inode *inode = file->f_mapping->host;
	loff_t pos;
	ssize_t written;

	if (!len)
		return 0;
	down_write(&inode->i_rwsem);
	pos = (file->f_flags & O_APPEND) ? inode->i_size : *ppos;
	if (pos >= inode->i_sb->s_maxbytes) {
		up_write(&inode->i_rwsem);
		return -EFBIG;
	}
	len = (size_t)min((loff_t)len, inode->i_sb->s_maxbytes - pos);
	file_update_time(file);
	written = generic_perform_write(file, buf, len, pos);
	up_write(&inode->i_rwsem);
	if (written > 0) {
		*ppos = pos + written;
		if (file->f_flags & O_DSYNC) {
			int err = vfs_fsync_range(file, pos, pos + written - 1, 0);
			if (err)
				return err;
		}
	}
	return written;
}
