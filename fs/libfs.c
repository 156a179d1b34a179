/*
 * libfs: helpers for filesystems whose directories exist only in the dcache (ramfs,
 * tmpfs, devtmpfs). A name exists while its dentry is hashed and positive; the filesystem
 * pins each name (d_pin) so memory pressure never prunes it, and unpins it on removal.
 * Directories are read by walking d_subdirs with a cursor dentry kept in the open file.
 */
#include <cgwb/fs.h>
#include <cgwb/pagemap.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include "vfs.h"

void d_pin(struct dentry *dentry)
{
	spin_lock(&dcache_lock);
	WARN_ON(dentry->d_flags & DCACHE_PINNED);
	dentry->d_flags |= DCACHE_PINNED;
	dentry->d_count++;
	spin_unlock(&dcache_lock);
}

static void d_unpin(struct dentry *dentry)
{
	bool pinned;

	spin_lock(&dcache_lock);
	pinned = dentry->d_flags & DCACHE_PINNED;
	dentry->d_flags &= ~DCACHE_PINNED;
	spin_unlock(&dcache_lock);
	if (pinned)
		dput(dentry);
}

struct dentry *simple_lookup(struct inode *dir, struct dentry *dentry)
{
	(void)dir;
	if (dentry->d_name.len > NAME_MAX)
		return ERR_PTR(-ENAMETOOLONG);
	d_add(dentry, NULL); /* not in the dcache: it does not exist */
	return NULL;
}

int simple_link(struct dentry *old_dentry, struct inode *dir, struct dentry *dentry)
{
	struct inode *inode = old_dentry->d_inode;

	inode->i_ctime = dir->i_ctime = dir->i_mtime = current_time(inode);
	inc_nlink(inode);
	ihold(inode);
	d_instantiate(dentry, inode);
	d_pin(dentry);
	return 0;
}

bool simple_empty(struct dentry *dentry)
{
	struct dentry *child;
	bool empty = true;

	spin_lock(&dcache_lock);
	list_for_each_entry(child, &dentry->d_subdirs, d_child) {
		if (child->d_inode && !d_unhashed(child) && !(child->d_flags & DCACHE_CURSOR)) {
			empty = false;
			break;
		}
	}
	spin_unlock(&dcache_lock);
	return empty;
}

int simple_unlink(struct inode *dir, struct dentry *dentry)
{
	struct inode *inode = dentry->d_inode;

	inode->i_ctime = dir->i_ctime = dir->i_mtime = current_time(inode);
	drop_nlink(inode);
	d_unpin(dentry);
	return 0;
}

int simple_rmdir(struct inode *dir, struct dentry *dentry)
{
	if (!simple_empty(dentry))
		return -ENOTEMPTY;
	drop_nlink(dentry->d_inode);
	simple_unlink(dir, dentry);
	drop_nlink(dir);
	return 0;
}

int simple_rename(struct inode *old_dir, struct dentry *old_dentry, struct inode *new_dir,
		  struct dentry *new_dentry)
{
	bool they_are_dirs = S_ISDIR(old_dentry->d_inode->i_mode);

	if (new_dentry->d_inode && !simple_empty(new_dentry))
		return -ENOTEMPTY;
	if (new_dentry->d_inode) {
		simple_unlink(new_dir, new_dentry);
		if (they_are_dirs) {
			drop_nlink(new_dentry->d_inode);
			drop_nlink(old_dir);
		}
	} else if (they_are_dirs) {
		drop_nlink(old_dir);
		inc_nlink(new_dir);
	}
	old_dentry->d_inode->i_ctime = current_time(old_dir);
	return 0;
}

/* The mode and timestamps attr asks for (the size is the filesystem's business). */
void setattr_copy(struct inode *inode, const struct iattr *attr)
{
	if (attr->ia_valid & ATTR_MODE)
		inode->i_mode = (inode->i_mode & S_IFMT) | (attr->ia_mode & 07777);
	if (attr->ia_valid & ATTR_ATIME)
		inode->i_atime = attr->ia_atime;
	if (attr->ia_valid & ATTR_MTIME)
		inode->i_mtime = attr->ia_mtime;
	if (attr->ia_valid & ATTR_CTIME)
		inode->i_ctime = attr->ia_ctime;
}

int simple_setattr(struct dentry *dentry, struct iattr *attr)
{
	struct inode *inode = dentry->d_inode;

	if (attr->ia_valid & ATTR_SIZE)
		truncate_setsize(inode, attr->ia_size);
	setattr_copy(inode, attr);
	mark_inode_dirty(inode);
	return 0;
}

int simple_statfs(struct dentry *dentry, struct kstatfs *buf)
{
	buf->f_type = (long)dentry->d_sb->s_magic;
	buf->f_bsize = PAGE_SIZE;
	buf->f_namelen = NAME_MAX;
	return 0;
}

int simple_readlink(struct dentry *dentry, char *buf, int size)
{
	const char *target = dentry->d_inode->i_private;
	size_t len;

	if (!target)
		return -EINVAL;
	len = strlen(target);
	if (len >= (size_t)size)
		return -ENAMETOOLONG;
	memcpy(buf, target, len + 1);
	return (int)len;
}

/* ---------------------------------------------------------------- readdir */

int dcache_dir_open(struct inode *inode, struct file *file)
{
	(void)inode;
	file->private_data = d_alloc_cursor(file->f_path.dentry);
	return file->private_data ? 0 : -ENOMEM;
}

int dcache_dir_close(struct inode *inode, struct file *file)
{
	(void)inode;
	dput(file->private_data);
	return 0;
}

static loff_t dcache_dir_lseek(struct file *file, loff_t offset, int whence)
{
	struct dentry *dir = file->f_path.dentry, *cursor = file->private_data;

	if (whence != SEEK_SET || offset != 0)
		return -EINVAL;
	spin_lock(&dcache_lock);
	list_move(&cursor->d_child, &dir->d_subdirs);
	spin_unlock(&dcache_lock);
	file->f_pos = 0;
	return 0;
}

/* The next live name after the cursor, referenced, or NULL. dcache_lock held. */
static struct dentry *next_positive(struct dentry *dir, struct dentry *cursor)
{
	struct list_head *p;

	for (p = cursor->d_child.next; p != &dir->d_subdirs; p = p->next) {
		struct dentry *d = list_entry(p, struct dentry, d_child);

		if (d->d_inode && !d_unhashed(d) && !(d->d_flags & DCACHE_CURSOR)) {
			dget_dlock(d);
			return d;
		}
	}
	return NULL;
}

static bool emit_dots(struct file *file, struct dir_context *ctx)
{
	struct dentry *dir = file->f_path.dentry;

	if (ctx->pos == 0) {
		if (!dir_emit(ctx, ".", 1, dir->d_inode->i_ino, DT_DIR))
			return false;
		ctx->pos = 1;
	}
	if (ctx->pos == 1) {
		if (!dir_emit(ctx, "..", 2, dir->d_parent->d_inode->i_ino, DT_DIR))
			return false;
		ctx->pos = 2;
		spin_lock(&dcache_lock);
		list_move(&((struct dentry *)file->private_data)->d_child, &dir->d_subdirs);
		spin_unlock(&dcache_lock);
	}
	return true;
}

int dcache_readdir(struct file *file, struct dir_context *ctx)
{
	struct dentry *dir = file->f_path.dentry, *cursor = file->private_data, *next;
	char name[NAME_MAX + 1];

	if (!emit_dots(file, ctx))
		return 0;
	for (;;) {
		unsigned int len;
		u64 ino;
		unsigned int type;
		bool ok;

		spin_lock(&dcache_lock);
		next = next_positive(dir, cursor);
		if (!next) {
			spin_unlock(&dcache_lock);
			return 0;
		}
		len = next->d_name.len;
		memcpy(name, next->d_name.name, len + 1);
		ino = next->d_inode->i_ino;
		type = fs_umode_to_dtype(next->d_inode->i_mode);
		spin_unlock(&dcache_lock);

		ok = dir_emit(ctx, name, (int)len, ino, type);
		if (ok) {
			spin_lock(&dcache_lock);
			list_move(&cursor->d_child, &next->d_child);
			spin_unlock(&dcache_lock);
			ctx->pos++;
		}
		dput(next);
		if (!ok)
			return 0;
	}
}

const struct file_operations simple_dir_operations = {
	.open = dcache_dir_open,
	.release = dcache_dir_close,
	.iterate = dcache_readdir,
	.llseek = dcache_dir_lseek,
};
