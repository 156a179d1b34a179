/*
 * Opening files by path, and size changes.
 *
 * An open file holds its path (mount and dentry), which holds the inode: a file unlinked
 * while open lives until the last fput. The file's operations come from the inode (i_fop);
 * device special files pick the device's at open (def_chr_fops, def_blk_fops).
 */
#include <cgwb/fs.h>
#include <cgwb/blkdev.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include "vfs.h"

#define VFS_UMASK 0022

static bool open_for_write(unsigned int flags)
{
	return (flags & O_ACCMODE) != O_RDONLY;
}

int notify_change(struct dentry *dentry, struct iattr *attr)
{
	struct inode *inode = dentry->d_inode;
	struct timespec64 now = current_time(inode);

	if (!(attr->ia_valid & ATTR_CTIME)) {
		attr->ia_valid |= ATTR_CTIME;
		attr->ia_ctime = now;
	}
	if (inode->i_op->setattr)
		return inode->i_op->setattr(dentry, attr);
	return simple_setattr(dentry, attr);
}

/* Size change with the inode locked (by the caller). */
static int do_truncate_dentry(struct dentry *dentry, loff_t length)
{
	struct timespec64 now = current_time(dentry->d_inode);
	struct iattr attr = {
		.ia_valid = ATTR_SIZE | ATTR_MTIME | ATTR_CTIME,
		.ia_size = length,
		.ia_mtime = now,
		.ia_ctime = now,
	};

	if (length < 0)
		return -EINVAL;
	if (length > dentry->d_sb->s_maxbytes)
		return -EFBIG;
	return notify_change(dentry, &attr);
}

int may_write_path(const struct path *path)
{
	umode_t mode = path->dentry->d_inode->i_mode;

	/* device files write to the device, not to the (read-only) filesystem */
	if ((S_ISREG(mode) || S_ISDIR(mode) || S_ISLNK(mode)) && mnt_is_readonly(path->mnt))
		return -EROFS;
	return 0;
}

int vfs_truncate(const struct path *path, loff_t length)
{
	struct inode *inode = path->dentry->d_inode;
	int err;

	if (S_ISDIR(inode->i_mode))
		return -EISDIR;
	if (!S_ISREG(inode->i_mode))
		return -EINVAL;
	err = may_write_path(path);
	if (err)
		return err;
	inode_lock(inode);
	err = do_truncate_dentry(path->dentry, length);
	inode_unlock(inode);
	return err;
}

int vfs_fallocate(struct file *file, int mode, loff_t offset, loff_t len)
{
	struct inode *inode = file->f_mapping ? file->f_mapping->host : NULL;

	if (offset < 0 || len <= 0)
		return -EINVAL;
	if (mode & ~FALLOC_FL_SUPPORTED_MASK)
		return -EOPNOTSUPP;
	if ((mode & (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE)) ==
	    (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE))
		return -EOPNOTSUPP;
	if ((mode & FALLOC_FL_PUNCH_HOLE) && !(mode & FALLOC_FL_KEEP_SIZE))
		return -EOPNOTSUPP;
	if ((mode & FALLOC_FL_COLLAPSE_RANGE) && (mode & ~FALLOC_FL_COLLAPSE_RANGE))
		return -EINVAL;
	if ((mode & FALLOC_FL_INSERT_RANGE) && (mode & ~FALLOC_FL_INSERT_RANGE))
		return -EINVAL;
	if ((mode & FALLOC_FL_UNSHARE_RANGE) &&
	    (mode & ~(FALLOC_FL_UNSHARE_RANGE | FALLOC_FL_KEEP_SIZE)))
		return -EINVAL;
	if (!file_writable(file))
		return -EBADF;
	if (!file->f_path.dentry || !inode || S_ISFIFO(inode->i_mode))
		return -ESPIPE;
	if (S_ISDIR(inode->i_mode))
		return -EISDIR;
	if (!S_ISREG(inode->i_mode) && !S_ISBLK(inode->i_mode))
		return -ENODEV;
	if (offset + len > inode->i_sb->s_maxbytes || offset + len < 0)
		return -EFBIG;
	if (!file->f_op->fallocate)
		return -EOPNOTSUPP;
	return (int)file->f_op->fallocate(file, mode, offset, len);
}

int do_truncate(const char *name, loff_t length)
{
	struct path path;
	int err = kern_path(name, LOOKUP_FOLLOW, &path);

	if (err)
		return err;
	err = vfs_truncate(&path, length);
	path_put(&path);
	return err;
}

int do_utimes(const char *name)
{
	struct path path;
	struct inode *inode;
	struct timespec64 now;
	struct iattr attr = { .ia_valid = ATTR_ATIME | ATTR_MTIME | ATTR_CTIME };
	int err = kern_path(name, LOOKUP_FOLLOW, &path);

	if (err)
		return err;
	inode = path.dentry->d_inode;
	err = may_write_path(&path);
	if (!err) {
		now = current_time(inode);
		attr.ia_atime = attr.ia_mtime = attr.ia_ctime = now;
		inode_lock(inode);
		err = notify_change(path.dentry, &attr);
		inode_unlock(inode);
	}
	path_put(&path);
	return err;
}

struct file *dentry_open(const struct path *path, unsigned int flags)
{
	struct inode *inode = path->dentry->d_inode;
	struct file *f;
	int err = 0;

	if (!inode->i_fop)
		return ERR_PTR(-ENXIO);
	f = alloc_file(inode->i_fop, flags & ~(O_CREAT | O_EXCL | O_TRUNC), NULL);
	if (!f)
		return ERR_PTR(-ENOMEM);
	f->f_path = *path;
	path_get(&f->f_path);
	f->f_inode = inode;
	f->f_mapping = inode->i_mapping;
	if (S_ISBLK(inode->i_mode)) {
		f->private_data = blkdev_get_by_dev(inode->i_rdev);
		if (!f->private_data)
			err = -ENXIO;
	}
	if (!err && f->f_op->open)
		err = f->f_op->open(inode, f);
	if (err) {
		f->f_op = NULL; /* never opened: no release */
		fput(f);
		return ERR_PTR(err);
	}
	return f;
}

/* The checks of an existing path being opened, then the open itself. */
static struct file *open_path(struct path *path, unsigned int flags, bool created)
{
	struct inode *inode = path->dentry->d_inode;
	int err = 0;

	if (S_ISDIR(inode->i_mode) && (open_for_write(flags) || (flags & O_TRUNC)))
		err = -EISDIR;
	else if ((flags & O_DIRECTORY) && !S_ISDIR(inode->i_mode))
		err = -ENOTDIR;
	else if (S_ISLNK(inode->i_mode))
		err = -ELOOP;
	else if (open_for_write(flags) || (flags & O_TRUNC))
		err = may_write_path(path);
	if (!err && (flags & O_TRUNC) && S_ISREG(inode->i_mode) && !created) {
		inode_lock(inode);
		err = do_truncate_dentry(path->dentry, 0);
		inode_unlock(inode);
	}
	if (err)
		return ERR_PTR(err);
	return dentry_open(path, flags);
}

static struct file *do_filp_open(const struct path *base, const char *name, unsigned int flags,
				 umode_t mode, int depth);

/* O_CREAT: the last name is created if missing; a symlink there is followed, dangling or not. */
static struct file *open_create(const struct path *base, const char *name, unsigned int flags,
				umode_t mode, int depth)
{
	struct nameidata nd;
	struct dentry *dentry;
	struct inode *dir;
	struct path path;
	struct file *f;
	bool created = false;
	int err = path_parent_from(base, name, 0, &nd);

	if (err)
		return ERR_PTR(err);
	if (nd.last_type != LAST_NORM || nd.trailing_slash) {
		nd_release(&nd);
		return ERR_PTR(-EISDIR);
	}
	dir = nd.path.dentry->d_inode;
	inode_lock(dir);
	dentry = lookup_last_locked(&nd);
	if (IS_ERR(dentry)) {
		inode_unlock(dir);
		nd_release(&nd);
		return ERR_PTR(PTR_ERR(dentry));
	}
	if (!dentry->d_inode) {
		err = mnt_is_readonly(nd.path.mnt) ?
			      -EROFS :
			      vfs_create(dir, dentry, (mode & ~VFS_UMASK) | S_IFREG);
		created = !err;
	} else if (flags & O_EXCL) {
		err = -EEXIST;
	}
	inode_unlock(dir);
	path.mnt = mntget(nd.path.mnt);
	path.dentry = dentry;
	if (!err && S_ISLNK(dentry->d_inode->i_mode)) {
		char *body = depth >= MAX_SYMLINK_DEPTH ? ERR_PTR(-ELOOP) : vfs_get_link(dentry);
		f = IS_ERR(body) ? ERR_PTR(PTR_ERR(body)) :
				   do_filp_open(&nd.path, body, flags, mode, depth + 1);
		if (!IS_ERR(body))
			kfree(body);
		path_put(&path);
		nd_release(&nd);
		return f;
	}
	nd_release(&nd);
	f = err ? ERR_PTR(err) : open_path(&path, flags, created);
	path_put(&path);
	return f;
}

static struct file *do_filp_open(const struct path *base, const char *name, unsigned int flags,
				 umode_t mode, int depth)
{
	struct path path;
	struct file *f;
	int err;

	if (flags & O_CREAT)
		return open_create(base, name, flags, mode, depth);
	err = path_lookup_from(
		base, name, LOOKUP_FOLLOW | ((flags & O_DIRECTORY) ? LOOKUP_DIRECTORY : 0), &path);
	if (err)
		return ERR_PTR(err);
	f = open_path(&path, flags, false);
	path_put(&path);
	return f;
}

struct file *filp_open(const char *path, unsigned int flags, umode_t mode)
{
	if (!path)
		return ERR_PTR(-EFAULT);
	return do_filp_open(NULL, path, flags, mode, 0);
}
