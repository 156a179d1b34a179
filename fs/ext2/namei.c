/*
 * Namespace operations on ext2 directories: lookup, create, mkdir, mknod, symlink, link,
 * unlink, rmdir and rename. The VFS holds the directories' i_rwsem and has looked the names
 * up (a negative dentry for a name to create, a positive one for a name to remove).
 *
 * Link counts follow Linux's ext2: a directory has one link from its parent's entry, one
 * from its own "." and one from the ".." of each subdirectory.
 */
#include "ext2.h"
#include <cgwb/errno.h>
#include <cgwb/string.h>

/* Is inode a directory above dentry (an entry that would make the tree a loop)? */
static bool ext2_is_ancestor(struct dentry *dentry, struct inode *inode)
{
	const struct qstr *name = &dentry->d_name;

	if ((name->len == 1 && name->name[0] == '.') ||
	    (name->len == 2 && name->name[0] == '.' && name->name[1] == '.'))
		return false;
	for (struct dentry *p = dentry->d_parent; p; p = p->d_parent) {
		if (p->d_inode == inode)
			return true;
		if (p == p->d_parent)
			break;
	}
	return false;
}

static struct dentry *ext2_lookup(struct inode *dir, struct dentry *dentry)
{
	struct inode *inode = NULL;
	int err;
	u32 ino;

	if (dentry->d_name.len > EXT2_NAME_LEN)
		return ERR_PTR(-ENAMETOOLONG);
	ino = ext2_inode_by_name(dir, &dentry->d_name, &err);
	if (err)
		return ERR_PTR(err);
	if (ino) {
		inode = ext2_iget(dir->i_sb, ino);
		if (IS_ERR(inode))
			return ERR_PTR(PTR_ERR(inode));
		if (S_ISDIR(inode->i_mode) && ext2_is_ancestor(dentry, inode)) {
			ext2_error(dir->i_sb, __func__,
				   "directory loop: entry '%.*s' in directory #%lu points to its "
				   "ancestor #%lu",
				   (int)dentry->d_name.len, dentry->d_name.name, dir->i_ino,
				   inode->i_ino);
			iput(inode);
			return ERR_PTR(-EIO);
		}
	}
	return d_splice_alias(inode, dentry);
}

/* Link a new non-directory inode into dir; on failure the inode goes away with its blocks. */
static int ext2_add_nondir(struct inode *dir, struct dentry *dentry, struct inode *inode)
{
	int err = ext2_add_link(dir, &dentry->d_name, inode);

	if (!err) {
		d_instantiate(dentry, inode);
		return 0;
	}
	clear_nlink(inode);
	mark_inode_dirty(inode);
	iput(inode);
	return err;
}

static struct inode *ext2_new_linked_inode(struct inode *dir, umode_t mode)
{
	struct inode *inode = ext2_new_inode(dir, mode);

	if (IS_ERR(inode))
		return inode;
	set_nlink(inode, S_ISDIR(mode) ? 2 : 1);
	ext2_set_inode_ops(inode);
	mark_inode_dirty(inode);
	return inode;
}

static int ext2_create(struct inode *dir, struct dentry *dentry, umode_t mode)
{
	struct inode *inode = ext2_new_linked_inode(dir, S_IFREG | (mode & ~(umode_t)S_IFMT));

	if (IS_ERR(inode))
		return (int)PTR_ERR(inode);
	return ext2_add_nondir(dir, dentry, inode);
}

static int ext2_mknod(struct inode *dir, struct dentry *dentry, umode_t mode, dev_t rdev)
{
	struct inode *inode;

	if (!(S_ISCHR(mode) || S_ISBLK(mode) || S_ISFIFO(mode) || (mode & S_IFMT) == S_IFSOCK))
		return S_ISREG(mode) || !(mode & S_IFMT) ? ext2_create(dir, dentry, mode) : -EINVAL;
	inode = ext2_new_linked_inode(dir, mode);
	if (IS_ERR(inode))
		return (int)PTR_ERR(inode);
	inode->i_rdev = rdev;
	ext2_set_inode_ops(inode); /* a device's operations depend on its number */
	mark_inode_dirty(inode);
	return ext2_add_nondir(dir, dentry, inode);
}

static int ext2_symlink(struct inode *dir, struct dentry *dentry, const char *target)
{
	size_t len = strlen(target);
	struct inode *inode;
	int err;

	if (!len)
		return -ENOENT;
	if (len + 1 > dir->i_sb->s_blocksize)
		return -ENAMETOOLONG;
	inode = ext2_new_linked_inode(dir, S_IFLNK | 0777);
	if (IS_ERR(inode))
		return (int)PTR_ERR(inode);
	err = ext2_write_symlink(inode, target, (unsigned int)len);
	if (err) {
		clear_nlink(inode);
		mark_inode_dirty(inode);
		iput(inode);
		return err;
	}
	return ext2_add_nondir(dir, dentry, inode);
}

static int ext2_link(struct dentry *old_dentry, struct inode *dir, struct dentry *dentry)
{
	struct inode *inode = old_dentry->d_inode;
	int err;

	if (S_ISDIR(inode->i_mode))
		return -EPERM;
	if (inode->i_nlink >= EXT2_LINK_MAX)
		return -EMLINK;
	inode->i_ctime = current_time(inode);
	inc_nlink(inode);
	ihold(inode);
	err = ext2_add_link(dir, &dentry->d_name, inode);
	if (err) {
		drop_nlink(inode);
		mark_inode_dirty(inode);
		iput(inode);
		return err;
	}
	mark_inode_dirty(inode);
	d_instantiate(dentry, inode);
	return 0;
}

static int ext2_mkdir(struct inode *dir, struct dentry *dentry, umode_t mode)
{
	struct inode *inode;
	int err;

	if (dir->i_nlink >= EXT2_LINK_MAX)
		return -EMLINK;
	inode = ext2_new_linked_inode(dir, S_IFDIR | (mode & ~(umode_t)S_IFMT));
	if (IS_ERR(inode))
		return (int)PTR_ERR(inode);
	err = ext2_make_empty(inode, dir);
	if (!err)
		err = ext2_add_link(dir, &dentry->d_name, inode);
	if (err) {
		clear_nlink(inode);
		mark_inode_dirty(inode);
		iput(inode);
		return err;
	}
	inc_nlink(dir);
	mark_inode_dirty(dir);
	d_instantiate(dentry, inode);
	return 0;
}

/* The entry for dentry in dir, checked against the inode the VFS has for it. */
static struct ext2_dir_entry_2 *ext2_find_own_entry(struct inode *dir, struct dentry *dentry,
						    struct buffer_head **bhp)
{
	struct ext2_dir_entry_2 *de = ext2_find_entry(dir, &dentry->d_name, bhp);

	if (IS_ERR(de))
		return de;
	if (!de)
		return ERR_PTR(-ENOENT);
	if (dentry->d_inode && le32_to_cpu(de->inode) != dentry->d_inode->i_ino) {
		brelse(*bhp);
		return ERR_PTR(-ENOENT); /* someone else's entry now: our dentry is stale */
	}
	return de;
}

static void ext2_drop_link(struct inode *inode)
{
	if (!inode->i_nlink) {
		ext2_error(inode->i_sb, "ext2_unlink", "inode %lu: link count already zero",
			   inode->i_ino);
		return;
	}
	drop_nlink(inode);
	mark_inode_dirty(inode);
	if (!inode->i_nlink && ext2_family(inode->i_sb))
		ext2_family(inode->i_sb)->orphan_add(inode);
}

static int ext2_unlink(struct inode *dir, struct dentry *dentry)
{
	struct inode *inode = dentry->d_inode;
	struct buffer_head *bh;
	struct ext2_dir_entry_2 *de = ext2_find_own_entry(dir, dentry, &bh);
	int err;

	if (IS_ERR(de))
		return (int)PTR_ERR(de);
	err = ext2_delete_entry(dir, de, bh);
	brelse(bh);
	if (err)
		return err;
	inode->i_ctime = dir->i_ctime;
	ext2_drop_link(inode);
	return 0;
}

static int ext2_rmdir(struct inode *dir, struct dentry *dentry)
{
	struct inode *inode = dentry->d_inode;
	int empty = ext2_empty_dir(inode);
	int err;

	if (empty <= 0)
		return empty < 0 ? empty : -ENOTEMPTY;
	err = ext2_unlink(dir, dentry);
	if (err)
		return err;
	inode->i_size = 0;
	ext2_drop_link(inode);
	ext2_drop_link(dir);
	return 0;
}

/* Is dentry at or below dir_dentry? (A directory cannot move into its own subtree.) */
static bool ext2_dentry_below(struct dentry *dentry, struct dentry *dir_dentry)
{
	for (struct dentry *p = dentry; p; p = p->d_parent) {
		if (p == dir_dentry)
			return true;
		if (p == p->d_parent)
			break;
	}
	return false;
}

static int ext2_rename_check(struct inode *old_inode, struct dentry *old_dentry,
			     struct inode *new_dir, struct dentry *new_dentry)
{
	struct inode *new_inode = new_dentry->d_inode;
	bool is_dir = S_ISDIR(old_inode->i_mode);

	if (is_dir && ext2_dentry_below(new_dentry->d_parent, old_dentry))
		return -EINVAL;
	if (!new_inode)
		return is_dir && new_dir->i_nlink >= EXT2_LINK_MAX ? -EMLINK : 0;
	if (is_dir != S_ISDIR(new_inode->i_mode))
		return is_dir ? -ENOTDIR : -EISDIR;
	if (is_dir) {
		int empty = ext2_empty_dir(new_inode);
		if (empty <= 0)
			return empty < 0 ? empty : -ENOTEMPTY;
	}
	return 0;
}

/* Make new_dentry's name refer to old_inode: overwrite its entry, or add one. */
static int ext2_rename_target(struct inode *new_dir, struct dentry *new_dentry,
			      struct inode *old_inode)
{
	struct inode *new_inode = new_dentry->d_inode;
	struct buffer_head *bh;
	struct ext2_dir_entry_2 *de;
	int err;

	if (!new_inode) {
		err = ext2_add_link(new_dir, &new_dentry->d_name, old_inode);
		if (!err && S_ISDIR(old_inode->i_mode)) {
			inc_nlink(new_dir);
			mark_inode_dirty(new_dir);
		}
		return err;
	}
	de = ext2_find_own_entry(new_dir, new_dentry, &bh);
	if (IS_ERR(de))
		return (int)PTR_ERR(de);
	ext2_set_link(new_dir, de, bh, old_inode, true);
	brelse(bh);
	new_inode->i_ctime = current_time(new_inode);
	if (S_ISDIR(old_inode->i_mode))
		ext2_drop_link(new_inode);
	ext2_drop_link(new_inode);
	return 0;
}

static int ext2_rename(struct inode *old_dir, struct dentry *old_dentry, struct inode *new_dir,
		       struct dentry *new_dentry)
{
	struct inode *old_inode = old_dentry->d_inode;
	struct ext2_dir_entry_2 *de, *dotdot = NULL;
	struct buffer_head *bh, *dotdot_bh = NULL;
	int err;

	if (new_dentry->d_inode == old_inode)
		return 0;
	err = ext2_rename_check(old_inode, old_dentry, new_dir, new_dentry);
	if (err)
		return err;
	if (S_ISDIR(old_inode->i_mode) && old_dir != new_dir) {
		dotdot = ext2_dotdot(old_inode, &dotdot_bh, &err);
		if (!dotdot)
			return err;
	}
	err = ext2_rename_target(new_dir, new_dentry, old_inode);
	if (!err) {
		/* found again: adding the new name may have rewritten the block it was in */
		de = ext2_find_own_entry(old_dir, old_dentry, &bh);
		err = IS_ERR(de) ? (int)PTR_ERR(de) : ext2_delete_entry(old_dir, de, bh);
		if (!IS_ERR(de))
			brelse(bh);
	}
	if (!err) {
		old_inode->i_ctime = current_time(old_inode);
		mark_inode_dirty(old_inode);
		if (dotdot)
			ext2_set_link(old_inode, dotdot, dotdot_bh, new_dir, false);
		if (S_ISDIR(old_inode->i_mode))
			ext2_drop_link(old_dir);
	}
	brelse(dotdot_bh);
	return err;
}

/* Each namespace change is one handle (ext4 with a journal): a commit has all of it or none. */
static int ext2_j_create(struct inode *dir, struct dentry *dentry, umode_t mode)
{
	return EXT2_JOURNALLED(dir->i_sb, ext2_create(dir, dentry, mode));
}

static int ext2_j_mkdir(struct inode *dir, struct dentry *dentry, umode_t mode)
{
	return EXT2_JOURNALLED(dir->i_sb, ext2_mkdir(dir, dentry, mode));
}

static int ext2_j_rmdir(struct inode *dir, struct dentry *dentry)
{
	return EXT2_JOURNALLED(dir->i_sb, ext2_rmdir(dir, dentry));
}

static int ext2_j_unlink(struct inode *dir, struct dentry *dentry)
{
	return EXT2_JOURNALLED(dir->i_sb, ext2_unlink(dir, dentry));
}

static int ext2_j_link(struct dentry *old_dentry, struct inode *dir, struct dentry *dentry)
{
	return EXT2_JOURNALLED(dir->i_sb, ext2_link(old_dentry, dir, dentry));
}

static int ext2_j_symlink(struct inode *dir, struct dentry *dentry, const char *target)
{
	return EXT2_JOURNALLED(dir->i_sb, ext2_symlink(dir, dentry, target));
}

static int ext2_j_mknod(struct inode *dir, struct dentry *dentry, umode_t mode, dev_t rdev)
{
	return EXT2_JOURNALLED(dir->i_sb, ext2_mknod(dir, dentry, mode, rdev));
}

static int ext2_j_rename(struct inode *old_dir, struct dentry *old_dentry, struct inode *new_dir,
			 struct dentry *new_dentry)
{
	return EXT2_JOURNALLED(old_dir->i_sb, ext2_rename(old_dir, old_dentry, new_dir, new_dentry));
}

const struct inode_operations ext2_dir_inode_operations = {
	.lookup = ext2_lookup,
	.create = ext2_j_create,
	.mkdir = ext2_j_mkdir,
	.rmdir = ext2_j_rmdir,
	.unlink = ext2_j_unlink,
	.link = ext2_j_link,
	.symlink = ext2_j_symlink,
	.mknod = ext2_j_mknod,
	.rename = ext2_j_rename,
	.setattr = ext2_setattr,
};

const struct inode_operations ext2_special_inode_operations = {
	.setattr = ext2_setattr,
};
