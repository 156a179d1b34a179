/*
 * Directory operations by path: mkdir, mknod, symlink, link, unlink, rmdir, readlink.
 * Each resolves the parent, locks it, looks the last name up, checks what POSIX asks and
 * calls the filesystem; the dcache follows (d_delete after a removal).
 */
#include <cgwb/fs.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include "vfs.h"

#define VFS_UMASK 0022

struct dir_op {
	struct nameidata nd;
	struct dentry *dentry; /* the looked-up last name (referenced), maybe negative */
	struct inode *dir;     /* locked */
};

/* Resolve name's parent, lock it and look the last name up. */
static int dir_op_begin(const char *name, struct dir_op *op, int err_not_norm)
{
	int err = path_parent(name, 0, &op->nd);

	op->dentry = NULL;
	op->dir = NULL;
	if (err)
		return err;
	if (op->nd.last_type != LAST_NORM) {
		nd_release(&op->nd);
		return err_not_norm;
	}
	op->dir = op->nd.path.dentry->d_inode;
	inode_lock(op->dir);
	op->dentry = lookup_last_locked(&op->nd);
	if (IS_ERR(op->dentry)) {
		err = (int)PTR_ERR(op->dentry);
		op->dentry = NULL;
		inode_unlock(op->dir);
		nd_release(&op->nd);
		return err;
	}
	return 0;
}

static void dir_op_end(struct dir_op *op)
{
	dput(op->dentry);
	inode_unlock(op->dir);
	nd_release(&op->nd);
}

/* For creations: the name must not exist and the mount must be writable. */
static int dir_op_create(const char *name, struct dir_op *op)
{
	int err = dir_op_begin(name, op, -EEXIST);

	if (err)
		return err;
	if (op->dentry->d_inode)
		err = -EEXIST;
	else if (mnt_is_readonly(op->nd.path.mnt))
		err = -EROFS;
	if (err)
		dir_op_end(op);
	return err;
}

static void touch_dir(struct inode *dir)
{
	dir->i_mtime = dir->i_ctime = current_time(dir);
}

int vfs_mkdir(struct inode *dir, struct dentry *dentry, umode_t mode)
{
	if (!dir->i_op->mkdir)
		return -EPERM;
	return dir->i_op->mkdir(dir, dentry, (mode & 07777) | S_IFDIR);
}

int do_mkdir(const char *name, umode_t mode)
{
	struct dir_op op;
	int err = dir_op_create(name, &op);

	if (err)
		return err;
	err = vfs_mkdir(op.dir, op.dentry, mode & ~VFS_UMASK);
	dir_op_end(&op);
	return err;
}

int vfs_create(struct inode *dir, struct dentry *dentry, umode_t mode)
{
	if (!dir->i_op->create)
		return -EACCES;
	return dir->i_op->create(dir, dentry, (mode & 07777) | S_IFREG);
}

int do_mknod(const char *name, umode_t mode, dev_t dev)
{
	struct dir_op op;
	int err;

	switch (mode & S_IFMT) {
	case S_IFREG:
	case 0:
	case S_IFCHR:
	case S_IFBLK:
	case S_IFIFO:
	case S_IFSOCK:
		break;
	case S_IFDIR:
		return -EPERM;
	default:
		return -EINVAL;
	}
	err = dir_op_create(name, &op);
	if (err)
		return err;
	if (op.nd.trailing_slash)
		err = -ENOENT;
	else if (S_ISREG(mode) || !(mode & S_IFMT))
		err = vfs_create(op.dir, op.dentry, mode & ~VFS_UMASK);
	else if (!op.dir->i_op->mknod)
		err = -EPERM;
	else
		err = op.dir->i_op->mknod(op.dir, op.dentry, mode & ~VFS_UMASK, dev);
	dir_op_end(&op);
	return err;
}

int do_symlink(const char *target, const char *newname)
{
	struct dir_op op;
	int err;

	if (!*target)
		return -ENOENT;
	if (strnlen(target, PATH_MAX) >= PATH_MAX)
		return -ENAMETOOLONG;
	err = dir_op_create(newname, &op);
	if (err)
		return err;
	if (op.nd.trailing_slash)
		err = -ENOENT;
	else if (!op.dir->i_op->symlink)
		err = -EPERM;
	else
		err = op.dir->i_op->symlink(op.dir, op.dentry, target);
	dir_op_end(&op);
	return err;
}

int do_link(const char *oldname, const char *newname)
{
	struct path old;
	struct dir_op op;
	int err = kern_path(oldname, 0, &old);

	if (err)
		return err;
	if (S_ISDIR(old.dentry->d_inode->i_mode)) {
		path_put(&old);
		return -EPERM;
	}
	err = dir_op_create(newname, &op);
	if (err) {
		path_put(&old);
		return err;
	}
	if (op.nd.path.mnt != old.mnt)
		err = -EXDEV;
	else if (op.nd.trailing_slash)
		err = -ENOENT;
	else if (!op.dir->i_op->link)
		err = -EPERM;
	else
		err = op.dir->i_op->link(old.dentry, op.dir, op.dentry);
	dir_op_end(&op);
	path_put(&old);
	return err;
}

int do_unlink(const char *name)
{
	struct dir_op op;
	struct inode *inode;
	int err = dir_op_begin(name, &op, -EISDIR);

	if (err)
		return err;
	inode = op.dentry->d_inode;
	if (!inode)
		err = -ENOENT;
	else if (S_ISDIR(inode->i_mode))
		err = -EISDIR;
	else if (op.nd.trailing_slash)
		err = -ENOTDIR;
	else if (mnt_is_readonly(op.nd.path.mnt))
		err = -EROFS;
	else if (d_mountpoint(op.dentry))
		err = -EBUSY;
	else if (!op.dir->i_op->unlink)
		err = -EPERM;
	else
		err = op.dir->i_op->unlink(op.dir, op.dentry);
	if (!err) {
		touch_dir(op.dir);
		d_delete(op.dentry);
	}
	dir_op_end(&op);
	return err;
}

static int rmdir_err_not_norm(const char *name)
{
	struct nameidata nd;
	int err = path_parent(name, 0, &nd);

	if (err)
		return err;
	err = nd.last_type == LAST_DOT    ? -EINVAL :
	      nd.last_type == LAST_DOTDOT ? -ENOTEMPTY :
					    -EBUSY;
	nd_release(&nd);
	return err;
}

int do_rmdir(const char *name)
{
	struct dir_op op;
	struct inode *inode;
	int err = dir_op_begin(name, &op, 1);

	if (err == 1)
		return rmdir_err_not_norm(name);
	if (err)
		return err;
	inode = op.dentry->d_inode;
	if (!inode)
		err = -ENOENT;
	else if (!S_ISDIR(inode->i_mode))
		err = -ENOTDIR;
	else if (mnt_is_readonly(op.nd.path.mnt))
		err = -EROFS;
	else if (d_mountpoint(op.dentry))
		err = -EBUSY;
	else if (!op.dir->i_op->rmdir)
		err = -EPERM;
	if (!err) {
		inode_lock(inode);
		shrink_dcache_parent(op.dentry);
		err = op.dir->i_op->rmdir(op.dir, op.dentry);
		inode_unlock(inode);
	}
	if (!err) {
		touch_dir(op.dir);
		d_delete(op.dentry);
	}
	dir_op_end(&op);
	return err;
}

int do_readlink(const char *name, char *buf, int size)
{
	struct path path;
	struct inode *inode;
	int err = kern_path(name, 0, &path);

	if (err)
		return err;
	inode = path.dentry->d_inode;
	if (!S_ISLNK(inode->i_mode) || !inode->i_op->readlink)
		err = -EINVAL;
	else
		err = inode->i_op->readlink(path.dentry, buf, size);
	path_put(&path);
	return err;
}
