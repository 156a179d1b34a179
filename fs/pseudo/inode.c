/*
 * Pseudo filesystems through the VFS. Inodes are made on lookup from nodes (each inode
 * holds a node reference, dropped at eviction) and are never hashed: once their dentry is
 * pruned they go. A dentry whose node was removed behind the VFS's back fails revalidation,
 * so the next walk looks the name up again and finds nothing.
 */
#include <cgwb/fs.h>
#include <cgwb/pseudofs.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/mutex.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include "internal.h"
#include "../vfs.h"

static DEFINE_MUTEX(pseudo_sb_mutex);

static const struct inode_operations pseudo_dir_iops;
static const struct inode_operations pseudo_file_iops;
static const struct inode_operations pseudo_link_iops;
static const struct file_operations pseudo_dir_fops;
static const struct file_operations pseudo_file_fops;

static struct pseudo_node *inode_node(const struct inode *inode)
{
	return inode->i_private;
}

/* An inode for node, taking over the caller's node reference (dropped on failure). */
static struct inode *pseudo_get_inode(struct super_block *sb, struct pseudo_node *node)
{
	struct inode *inode = new_inode(sb);

	if (!inode) {
		pseudo_put(node);
		return NULL;
	}
	inode->i_ino = node->ino;
	inode->i_mode = node->mode;
	inode->i_private = node;
	inode->i_atime = inode->i_mtime = inode->i_ctime = current_time(inode);
	if (S_ISDIR(node->mode)) {
		inode->i_op = &pseudo_dir_iops;
		inode->i_fop = &pseudo_dir_fops;
		set_nlink(inode, 2);
	} else if (S_ISLNK(node->mode)) {
		inode->i_op = &pseudo_link_iops;
		inode->i_size = (loff_t)strlen(node->link_target);
	} else {
		inode->i_op = &pseudo_file_iops;
		inode->i_fop = &pseudo_file_fops;
	}
	return inode;
}

/* ---------------------------------------------------------------- directories */

static struct dentry *pseudo_lookup_dentry(struct inode *dir, struct dentry *dentry)
{
	struct pseudo_node *child =
		pseudo_child_get(inode_node(dir), dentry->d_name.name, dentry->d_name.len);
	struct inode *inode = NULL;

	if (child) {
		inode = pseudo_get_inode(dir->i_sb, child);
		if (!inode)
			return ERR_PTR(-ENOMEM);
	}
	d_add(dentry, inode);
	return NULL;
}

static int pseudo_vfs_mkdir(struct inode *dir, struct dentry *dentry, umode_t mode)
{
	struct pseudo_node *node = inode_node(dir), *child;
	struct inode *inode;
	int err;

	(void)mode;
	if (!node->dir_ops || !node->dir_ops->mkdir)
		return -EPERM;
	if (!pseudo_get_active(node))
		return -ENOENT;
	err = node->dir_ops->mkdir(node, dentry->d_name.name, node->private);
	pseudo_put_active(node);
	if (err)
		return err;
	child = pseudo_child_get(node, dentry->d_name.name, dentry->d_name.len);
	if (!child)
		return -ENOENT; /* the callback said yes but made nothing */
	inode = pseudo_get_inode(dir->i_sb, child);
	if (!inode)
		return -ENOMEM;
	d_instantiate(dentry, inode);
	inc_nlink(dir);
	return 0;
}

static int pseudo_vfs_rmdir(struct inode *dir, struct dentry *dentry)
{
	struct pseudo_node *node = inode_node(dir), *child = inode_node(dentry->d_inode);
	int err;

	if (!node->dir_ops || !node->dir_ops->rmdir)
		return -EPERM;
	if (!pseudo_get_active(node))
		return -ENOENT;
	err = node->dir_ops->rmdir(node, child, node->private);
	pseudo_put_active(node);
	if (err)
		return err;
	pseudo_remove(child);
	clear_nlink(dentry->d_inode);
	drop_nlink(dir);
	return 0;
}

/*
 * Sizes and times of pseudo files mean nothing: O_TRUNC and touch succeed quietly, but for
 * a file that acts on truncation to 0 (pseudo_set_truncate).
 */
static int pseudo_setattr(struct dentry *dentry, struct iattr *attr)
{
	struct pseudo_node *node = inode_node(dentry->d_inode);
	int err;

	if (!(attr->ia_valid & ATTR_SIZE) || attr->ia_size || !node->truncate)
		return 0;
	if (!pseudo_get_active(node))
		return -ENODEV;
	err = node->truncate(node->private);
	pseudo_put_active(node);
	return err;
}

static const struct inode_operations pseudo_dir_iops = {
	.lookup = pseudo_lookup_dentry,
	.mkdir = pseudo_vfs_mkdir,
	.rmdir = pseudo_vfs_rmdir,
	.setattr = pseudo_setattr,
};

static int pseudo_readdir(struct file *file, struct dir_context *ctx)
{
	struct pseudo_node *node = inode_node(file->f_inode);
	char name[NAME_MAX + 1];
	unsigned long ino;
	umode_t mode;

	if (ctx->pos == 0) {
		if (!dir_emit(ctx, ".", 1, node->ino, DT_DIR))
			return 0;
		ctx->pos = 1;
	}
	if (ctx->pos == 1) {
		if (!dir_emit(ctx, "..", 2, node->parent ? node->parent->ino : node->ino, DT_DIR))
			return 0;
		ctx->pos = 2;
	}
	while (pseudo_child_at(node, ctx->pos - 2, name, &ino, &mode)) {
		if (!dir_emit(ctx, name, (int)strlen(name), ino, fs_umode_to_dtype(mode)))
			return 0;
		ctx->pos++;
	}
	return 0;
}

static const struct file_operations pseudo_dir_fops = {
	.iterate = pseudo_readdir,
	.llseek = generic_file_llseek,
};

/* ---------------------------------------------------------------- files */

struct pseudo_file {
	struct pseudo_node *node;
	struct seq_buf seq; /* the snapshot readers see */
	size_t stream_off;  /* streams: how much of seq was read */
};

static int pseudo_open(struct inode *inode, struct file *file)
{
	struct pseudo_node *node = inode_node(inode);
	unsigned int acc = file->f_flags & O_ACCMODE;
	struct pseudo_file *pf;
	int err = 0;

	if ((acc != O_WRONLY && !node->show) || (acc != O_RDONLY && !node->store))
		return -EACCES;
	pf = kzalloc(sizeof(*pf), GFP_KERNEL);
	if (!pf)
		return -ENOMEM;
	pf->node = node;
	seq_buf_init(&pf->seq);
	if (acc != O_WRONLY && !node->stream) {
		if (!pseudo_get_active(node))
			err = -ENODEV;
		if (!err) {
			err = node->show(&pf->seq, node->private);
			pseudo_put_active(node);
		}
		if (!err)
			err = pf->seq.err;
	}
	if (err) {
		seq_buf_free(&pf->seq);
		kfree(pf);
		return err;
	}
	pseudo_get(node);
	file->private_data = pf;
	return 0;
}

static int pseudo_release(struct inode *inode, struct file *file)
{
	struct pseudo_file *pf = file->private_data;

	(void)inode;
	seq_buf_free(&pf->seq);
	pseudo_put(pf->node);
	kfree(pf);
	return 0;
}

/* A stream's read: the rest of the last show(), or a new one once that is consumed. */
static ssize_t pseudo_stream_read(struct pseudo_file *pf, char *buf, size_t len, loff_t *pos)
{
	struct pseudo_node *node = pf->node;
	size_t n;
	int err;

	if (pf->stream_off >= pf->seq.len) {
		pf->seq.len = 0;
		pf->stream_off = 0;
		if (!pseudo_get_active(node))
			return -ENODEV;
		err = node->show(&pf->seq, node->private);
		pseudo_put_active(node);
		if (!err)
			err = pf->seq.err;
		if (err)
			return err;
	}
	n = min(len, pf->seq.len - pf->stream_off);
	memcpy(buf, pf->seq.buf + pf->stream_off, n);
	pf->stream_off += n;
	*pos += (loff_t)n;
	return (ssize_t)n;
}

static ssize_t pseudo_read(struct file *file, char *buf, size_t len, loff_t *pos)
{
	struct pseudo_file *pf = file->private_data;
	size_t n;

	if (pf->node->stream)
		return pseudo_stream_read(pf, buf, len, pos);
	if (*pos < 0)
		return -EINVAL;
	if ((size_t)*pos >= pf->seq.len)
		return 0;
	n = min(len, pf->seq.len - (size_t)*pos);
	memcpy(buf, pf->seq.buf + *pos, n);
	*pos += (loff_t)n;
	return (ssize_t)n;
}

static ssize_t pseudo_write(struct file *file, const char *buf, size_t len, loff_t *pos)
{
	struct pseudo_file *pf = file->private_data;
	struct pseudo_node *node = pf->node;
	char *copy;
	int err;

	len = min(len, (size_t)PAGE_SIZE); /* one page per store, like sysfs */
	copy = kmalloc(len + 1, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	memcpy(copy, buf, len);
	copy[len] = 0;
	if (!pseudo_get_active(node)) {
		kfree(copy);
		return -ENODEV;
	}
	err = node->store(copy, len, node->private);
	pseudo_put_active(node);
	kfree(copy);
	if (err < 0)
		return err;
	*pos += (loff_t)len;
	return (ssize_t)len;
}

static loff_t pseudo_llseek(struct file *file, loff_t offset, int whence)
{
	struct pseudo_file *pf = file->private_data;
	loff_t base = whence == SEEK_SET ? 0 :
		      whence == SEEK_CUR ? file->f_pos :
					   (loff_t)pf->seq.len;

	if (whence != SEEK_SET && whence != SEEK_CUR && whence != SEEK_END)
		return -EINVAL;
	if (base + offset < 0)
		return -EINVAL;
	file->f_pos = base + offset;
	return file->f_pos;
}

static const struct file_operations pseudo_file_fops = {
	.open = pseudo_open,
	.release = pseudo_release,
	.read = pseudo_read,
	.write = pseudo_write,
	.llseek = pseudo_llseek,
};

static const struct inode_operations pseudo_file_iops = {
	.setattr = pseudo_setattr,
};

static int pseudo_readlink(struct dentry *dentry, char *buf, int size)
{
	const char *target = inode_node(dentry->d_inode)->link_target;
	size_t len = strlen(target);

	if (len >= (size_t)size)
		return -ENAMETOOLONG;
	memcpy(buf, target, len + 1);
	return (int)len;
}

static const struct inode_operations pseudo_link_iops = {
	.readlink = pseudo_readlink,
};

/* ---------------------------------------------------------------- superblock */

static int pseudo_d_revalidate(struct dentry *dentry)
{
	struct inode *inode = dentry->d_inode;

	/* a negative name may exist by now; a removed node does not any more */
	return inode && !READ_ONCE(inode_node(inode)->removed);
}

static const struct dentry_operations pseudo_dops = {
	.d_revalidate = pseudo_d_revalidate,
};

static void pseudo_evict_inode(struct inode *inode)
{
	pseudo_put(inode_node(inode));
	inode->i_private = NULL;
}

static const struct super_operations pseudo_sops = {
	.statfs = simple_statfs,
	.evict_inode = pseudo_evict_inode,
};

static struct super_block *pseudo_new_sb(struct pseudo_fs *fs, int flags)
{
	struct super_block *sb = alloc_super(&fs->type, flags);

	if (IS_ERR(sb))
		return sb;
	sb->s_op = &pseudo_sops;
	sb->s_d_op = &pseudo_dops;
	sb->s_magic = fs->magic;
	sb->s_fs_info = fs;
	set_anon_super(sb);
	pseudo_get(fs->root);
	sb->s_root = d_make_root(pseudo_get_inode(sb, fs->root));
	if (!sb->s_root) {
		deactivate_locked_super(sb);
		return ERR_PTR(-ENOMEM);
	}
	return sb;
}

/* Every mount of a pseudo filesystem shows the same superblock. */
static struct super_block *pseudo_mount(struct file_system_type *type, int flags,
					const char *dev_name, void *data)
{
	struct pseudo_fs *fs = container_of(type, struct pseudo_fs, type);
	struct super_block *sb;

	(void)dev_name;
	(void)data;
	mutex_lock(&pseudo_sb_mutex);
	sb = fs->sb;
	if (sb && grab_active_super(sb)) {
		mutex_unlock(&pseudo_sb_mutex);
		down_write(&sb->s_umount);
		return sb;
	}
	sb = pseudo_new_sb(fs, flags);
	if (!IS_ERR(sb))
		fs->sb = sb;
	mutex_unlock(&pseudo_sb_mutex);
	return sb;
}

static void pseudo_kill_sb(struct super_block *sb)
{
	struct pseudo_fs *fs = sb->s_fs_info;

	mutex_lock(&pseudo_sb_mutex);
	if (fs->sb == sb)
		fs->sb = NULL;
	mutex_unlock(&pseudo_sb_mutex);
	kill_anon_super(sb);
}

int pseudo_register_type(struct pseudo_fs *fs)
{
	fs->type.mount = pseudo_mount;
	fs->type.kill_sb = pseudo_kill_sb;
	return register_filesystem(&fs->type);
}
