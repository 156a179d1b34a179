/*
 * ramfs and tmpfs: files that live in the page cache with no backing store. Their pages
 * are unevictable and never dirty-accounted (AS_UNEVICTABLE, AS_NO_ACCOUNT, the noop
 * bdi): there is nowhere to write them, so only truncation and unlink free them. Names
 * live in the dcache (libfs); an inode lives while a name or an open file holds it.
 *
 * A write puts its data in folios of up to 64 KiB (mapping_set_large_folios()): one
 * allocation, insertion and dirtying for as many pages.
 *
 * Mountable as "rootfs" (the namespace root), "ramfs", "tmpfs" and "devtmpfs" (/dev).
 */
#include <cgwb/fs.h>
#include <cgwb/pagemap.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include "../vfs.h"

#define RAMFS_MAGIC 0x858458f6
#define TMPFS_MAGIC 0x01021994

static const struct super_operations ramfs_ops;
static const struct inode_operations ramfs_dir_inode_operations;

/* A folio never written reads as zeros. */
static int ramfs_readpage(struct file *file, struct page *page)
{
	struct folio *folio = page_folio(page);

	(void)file;
	memset(folio_address(folio), 0, folio_size(folio));
	folio_set_uptodate(folio);
	folio_unlock(folio);
	return 0;
}

static void ramfs_update_blocks(struct inode *inode)
{
	inode->i_blocks = (u64)READ_ONCE(inode->i_data.nrpages) << (PAGE_SHIFT - 9);
}

static int ramfs_write_end(struct file *file, struct address_space *mapping, loff_t pos,
			   unsigned int len, unsigned int copied, struct page *page, void *fsdata)
{
	int ret = simple_write_end(file, mapping, pos, len, copied, page, fsdata);

	ramfs_update_blocks(mapping->host);
	return ret;
}

static const struct address_space_operations ramfs_aops = {
	.readpage = ramfs_readpage,
	.write_begin = simple_write_begin,
	.write_end = ramfs_write_end,
};

/* Nothing to write back: the data is in memory and nowhere else. */
static int ramfs_fsync(struct file *file, loff_t start, loff_t end, int datasync)
{
	(void)file;
	(void)start;
	(void)end;
	(void)datasync;
	return 0;
}

static const struct file_operations ramfs_file_operations = {
	.read = generic_file_read,
	.write = generic_file_write,
	.llseek = generic_file_llseek,
	.fsync = ramfs_fsync,
};

static int ramfs_setattr(struct dentry *dentry, struct iattr *attr)
{
	int err = simple_setattr(dentry, attr);

	ramfs_update_blocks(dentry->d_inode);
	return err;
}

static const struct inode_operations ramfs_file_inode_operations = {
	.setattr = ramfs_setattr,
};

static const struct inode_operations ramfs_symlink_inode_operations = {
	.readlink = simple_readlink,
	.setattr = simple_setattr,
};

static struct inode *ramfs_get_inode(struct super_block *sb, const struct inode *dir, umode_t mode,
				     dev_t dev)
{
	struct inode *inode = new_inode(sb);

	if (!inode)
		return NULL;
	inode->i_ino = get_next_ino();
	inode_init_owner(inode, dir, mode);
	inode->i_mapping->a_ops = &ramfs_aops;
	inode->i_mapping->flags |= (1UL << AS_UNEVICTABLE) | (1UL << AS_NO_ACCOUNT);
	inode->i_atime = inode->i_mtime = inode->i_ctime = current_time(inode);
	switch (mode & S_IFMT) {
	case S_IFREG:
		inode->i_op = &ramfs_file_inode_operations;
		inode->i_fop = &ramfs_file_operations;
		mapping_set_large_folios(inode->i_mapping);
		break;
	case S_IFDIR:
		inode->i_op = &ramfs_dir_inode_operations;
		inode->i_fop = &simple_dir_operations;
		inc_nlink(inode); /* "." */
		break;
	case S_IFLNK:
		inode->i_op = &ramfs_symlink_inode_operations;
		break;
	default:
		inode->i_op = &ramfs_file_inode_operations;
		init_special_inode(inode, mode, dev);
		break;
	}
	return inode;
}

static void ramfs_instantiate(struct inode *dir, struct dentry *dentry, struct inode *inode)
{
	d_instantiate(dentry, inode);
	d_pin(dentry);
	dir->i_mtime = dir->i_ctime = current_time(dir);
}

static int ramfs_mknod(struct inode *dir, struct dentry *dentry, umode_t mode, dev_t dev)
{
	struct inode *inode = ramfs_get_inode(dir->i_sb, dir, mode, dev);

	if (!inode)
		return -ENOSPC;
	ramfs_instantiate(dir, dentry, inode);
	return 0;
}

static int ramfs_mkdir(struct inode *dir, struct dentry *dentry, umode_t mode)
{
	int err = ramfs_mknod(dir, dentry, mode | S_IFDIR, 0);

	if (!err)
		inc_nlink(dir);
	return err;
}

static int ramfs_create(struct inode *dir, struct dentry *dentry, umode_t mode)
{
	return ramfs_mknod(dir, dentry, mode | S_IFREG, 0);
}

static int ramfs_symlink(struct inode *dir, struct dentry *dentry, const char *target)
{
	struct inode *inode = ramfs_get_inode(dir->i_sb, dir, S_IFLNK | 0777, 0);

	if (!inode)
		return -ENOSPC;
	inode->i_private = kstrdup(target, GFP_KERNEL);
	if (!inode->i_private) {
		iput(inode);
		return -ENOMEM;
	}
	inode->i_size = (loff_t)strlen(target);
	ramfs_instantiate(dir, dentry, inode);
	return 0;
}

static const struct inode_operations ramfs_dir_inode_operations = {
	.lookup = simple_lookup,
	.create = ramfs_create,
	.mkdir = ramfs_mkdir,
	.rmdir = simple_rmdir,
	.unlink = simple_unlink,
	.link = simple_link,
	.symlink = ramfs_symlink,
	.mknod = ramfs_mknod,
	.rename = simple_rename,
	.setattr = simple_setattr,
};

/* Pages in use by this filesystem's files. */
static unsigned long ramfs_pages(struct super_block *sb)
{
	struct inode *inode;
	unsigned long pages = 0;

	spin_lock(&sb->s_inode_list_lock);
	list_for_each_entry(inode, &sb->s_inodes, i_sb_list)
		pages += READ_ONCE(inode->i_data.nrpages);
	spin_unlock(&sb->s_inode_list_lock);
	return pages;
}

/* tmpfs's default size: half of memory; ramfs reports no limit (zeros), like Linux. */
static int ramfs_statfs(struct dentry *dentry, struct kstatfs *buf)
{
	struct super_block *sb = dentry->d_sb;

	simple_statfs(dentry, buf);
	if (!strcmp(sb->s_type->name, "tmpfs")) {
		u64 used = ramfs_pages(sb);
		buf->f_blocks = max((u64)totalram_pages / 2, used);
		buf->f_bfree = buf->f_bavail = buf->f_blocks - used;
	}
	return 0;
}

static int ramfs_drop_inode(struct inode *inode)
{
	(void)inode;
	return 1; /* nothing to cache: an unreferenced inode is an unlinked one */
}

static void ramfs_evict_inode(struct inode *inode)
{
	if (S_ISLNK(inode->i_mode))
		kfree(inode->i_private);
	inode->i_private = NULL;
}

static const struct super_operations ramfs_ops = {
	.statfs = ramfs_statfs,
	.drop_inode = ramfs_drop_inode,
	.evict_inode = ramfs_evict_inode,
};

static struct super_block *ramfs_mount(struct file_system_type *type, int flags,
				       const char *dev_name, void *data)
{
	bool tmpfs = !strcmp(type->name, "tmpfs");
	struct super_block *sb = alloc_super(type, flags);
	struct inode *root;

	(void)dev_name;
	(void)data;
	if (IS_ERR(sb))
		return sb;
	sb->s_op = &ramfs_ops;
	sb->s_magic = strcmp(type->name, "ramfs") ? TMPFS_MAGIC : RAMFS_MAGIC;
	set_anon_super(sb);
	root = ramfs_get_inode(sb, NULL, S_IFDIR | (tmpfs ? 01777 : 0755), 0);
	sb->s_root = d_make_root(root);
	if (!sb->s_root) {
		deactivate_locked_super(sb);
		return ERR_PTR(-ENOMEM);
	}
	return sb;
}

static struct file_system_type ramfs_types[] = {
	{ .name = "rootfs", .mount = ramfs_mount, .kill_sb = kill_litter_super },
	{ .name = "ramfs", .mount = ramfs_mount, .kill_sb = kill_litter_super },
	{ .name = "tmpfs", .mount = ramfs_mount, .kill_sb = kill_litter_super },
	{ .name = "devtmpfs", .mount = ramfs_mount, .kill_sb = kill_litter_super },
};

void init_ramfs_fs(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(ramfs_types); i++)
		register_filesystem(&ramfs_types[i]);
}
