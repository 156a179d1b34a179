/*
 * rename(2) within one mount. rename_mutex makes renames one at a time, so the two
 * directories can be locked without deadlock (the ancestor first, as everybody else locks
 * parents before children) and "is the target inside the source" cannot change under us.
 */
#include <cgwb/fs.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include "vfs.h"

static DEFINE_MUTEX(rename_mutex);

struct rename_side {
	struct nameidata nd;
	struct dentry *dentry;
};

static struct inode *side_dir(struct rename_side *s)
{
	return s->nd.path.dentry->d_inode;
}

static void lock_rename(struct rename_side *from, struct rename_side *to)
{
	struct dentry *p1 = from->nd.path.dentry, *p2 = to->nd.path.dentry;

	mutex_lock(&rename_mutex);
	if (p1 == p2) {
		inode_lock(p1->d_inode);
	} else if (is_subdir(p1, p2)) {
		inode_lock(p2->d_inode);
		inode_lock(p1->d_inode);
	} else {
		inode_lock(p1->d_inode);
		inode_lock(p2->d_inode);
	}
}

static void unlock_rename(struct rename_side *from, struct rename_side *to)
{
	inode_unlock(side_dir(from));
	if (side_dir(to) != side_dir(from))
		inode_unlock(side_dir(to));
	mutex_unlock(&rename_mutex);
}

/* What POSIX forbids, given both names looked up. */
static int may_rename(struct rename_side *from, struct rename_side *to)
{
	struct inode *src = from->dentry->d_inode, *dst = to->dentry->d_inode;
	bool is_dir;

	if (!src)
		return -ENOENT;
	is_dir = S_ISDIR(src->i_mode);
	if ((from->nd.trailing_slash || to->nd.trailing_slash) && !is_dir)
		return -ENOTDIR;
	if (dst && is_dir && !S_ISDIR(dst->i_mode))
		return -ENOTDIR;
	if (dst && !is_dir && S_ISDIR(dst->i_mode))
		return -EISDIR;
	/* a directory cannot move inside itself */
	if (is_dir && is_subdir(to->nd.path.dentry, from->dentry))
		return -EINVAL;
	/* the target may not be an ancestor of the source */
	if (dst && is_subdir(from->nd.path.dentry, to->dentry))
		return -ENOTEMPTY;
	if (d_mountpoint(from->dentry) || d_mountpoint(to->dentry))
		return -EBUSY;
	if (mnt_is_readonly(from->nd.path.mnt))
		return -EROFS;
	if (!side_dir(from)->i_op->rename)
		return -EPERM;
	return 0;
}

static int lookup_sides(struct rename_side *from, struct rename_side *to)
{
	from->dentry = lookup_last_locked(&from->nd);
	if (IS_ERR(from->dentry)) {
		int err = (int)PTR_ERR(from->dentry);
		from->dentry = NULL;
		return err;
	}
	to->dentry = lookup_last_locked(&to->nd);
	if (IS_ERR(to->dentry)) {
		int err = (int)PTR_ERR(to->dentry);
		to->dentry = NULL;
		return err;
	}
	return 0;
}

static int rename_locked(struct rename_side *from, struct rename_side *to)
{
	struct inode *old_dir = side_dir(from), *new_dir = side_dir(to);
	int err = lookup_sides(from, to);

	if (err)
		return err;
	if (from->dentry == to->dentry ||
	    (to->dentry->d_inode && from->dentry->d_inode == to->dentry->d_inode))
		return 0; /* the same file: nothing to do */
	err = may_rename(from, to);
	if (err)
		return err;
	err = old_dir->i_op->rename(old_dir, from->dentry, new_dir, to->dentry);
	if (err)
		return err;
	old_dir->i_mtime = old_dir->i_ctime = current_time(old_dir);
	new_dir->i_mtime = new_dir->i_ctime = old_dir->i_mtime;
	d_move(from->dentry, to->dentry);
	return 0;
}

static int not_norm_error(const struct nameidata *nd)
{
	return nd->last_type == LAST_ROOT || nd->last_type == LAST_DOT ||
			       nd->last_type == LAST_DOTDOT ?
		       -EBUSY :
		       0;
}

int do_rename(const char *oldname, const char *newname)
{
	struct rename_side from = { 0 }, to = { 0 };
	int err = path_parent(oldname, 0, &from.nd);

	if (err)
		return err;
	err = path_parent(newname, 0, &to.nd);
	if (err) {
		nd_release(&from.nd);
		return err;
	}
	err = not_norm_error(&from.nd);
	if (!err)
		err = not_norm_error(&to.nd);
	if (!err && from.nd.path.mnt != to.nd.path.mnt)
		err = -EXDEV;
	if (!err) {
		lock_rename(&from, &to);
		err = rename_locked(&from, &to);
		dput(from.dentry);
		dput(to.dentry);
		unlock_rename(&from, &to);
	}
	nd_release(&from.nd);
	nd_release(&to.nd);
	return err;
}
