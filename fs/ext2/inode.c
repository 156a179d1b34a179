/*
 * ext2 inodes: reading them from the inode tables, writing them back, attribute changes
 * (size, mode, times) and the release of an unlinked inode's blocks and number at eviction.
 *
 * The on-disk inode is rewritten field by field: what this driver does not manage (the
 * fragment fields, osd2's high block count, the extra space of large inodes) stays as it
 * was, except for an inode that is new, whose whole slot is cleared first.
 */
#include "ext2.h"
#include <cgwb/jiffies.h>
#include <cgwb/writeback.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>

static struct kmem_cache *ext2_inode_cachep;

struct inode *ext2_alloc_inode(struct super_block *sb)
{
	struct ext2_inode_info *ei;

	(void)sb;
	if (!ext2_inode_cachep) {
		/* first mount: in process context, before any inode of ours exists */
		ext2_inode_cachep = kmem_cache_create("ext2_inode_cache", sizeof(*ei), 8);
		if (!ext2_inode_cachep)
			return NULL;
	}
	ei = kmem_cache_zalloc(ext2_inode_cachep, GFP_NOFS);
	if (!ei)
		return NULL;
	mutex_init(&ei->truncate_mutex);
	spin_lock_init(&ei->i_block_reservation_lock);
	ext2_unwritten_init(&ei->i_unwritten);
	INIT_LIST_HEAD(&ei->i_journal_list);
	INIT_LIST_HEAD(&ei->i_orphan);
	return &ei->vfs_inode;
}

void ext2_destroy_inode(struct inode *inode)
{
	kmem_cache_free(ext2_inode_cachep, EXT2_I(inode));
}

/* The on-disk inode ino inside its inode table block (*bhp, referenced) or an ERR_PTR. */
struct ext2_inode *ext2_get_raw_inode(struct super_block *sb, unsigned long ino,
				      struct buffer_head **bhp)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	unsigned int group, index;
	struct buffer_head *bh;
	u32 block;

	/* reserved inodes are refused by ext2_iget(), not here: ext4 reads its journal's */
	if (ino > sbi->s_inodes_count || !ino) {
		ext2_error(sb, __func__, "bad inode number: %lu", ino);
		return ERR_PTR(-EIO);
	}
	group = (unsigned int)((ino - 1) / sbi->s_inodes_per_group);
	index = (unsigned int)((ino - 1) % sbi->s_inodes_per_group);
	block = le32_to_cpu(ext2_get_group_desc(sb, group, NULL)->bg_inode_table) +
		index / sbi->s_inodes_per_block;
	bh = sb_bread(sb, block);
	if (!bh) {
		ext2_error(sb, __func__, "unable to read inode block - inode=%lu, block=%u", ino,
			   block);
		return ERR_PTR(-EIO);
	}
	*bhp = bh;
	return (struct ext2_inode *)(bh->b_data +
				     (index % sbi->s_inodes_per_block) * sbi->s_inode_size);
}

static dev_t ext2_decode_dev(const u32 *data)
{
	u32 old = data[0], dev = data[1];

	if (old)
		return MKDEV((old >> 8) & 0xff, old & 0xff);
	return MKDEV((dev & 0xfff00) >> 8, (dev & 0xff) | ((dev >> 12) & 0xfff00));
}

static void ext2_encode_dev(dev_t rdev, u32 *data)
{
	unsigned int major = MAJOR(rdev), minor = MINOR(rdev);

	if (major < 256 && minor < 256) {
		data[0] = (major << 8) | minor;
		data[1] = 0;
	} else {
		data[0] = 0;
		data[1] = (minor & 0xff) | (major << 8) | ((minor & ~0xffu) << 12);
	}
	data[2] = 0;
}

void ext2_set_inode_ops(struct inode *inode)
{
	inode->i_mapping->a_ops = &ext2_aops;
	if (S_ISREG(inode->i_mode)) {
		inode->i_op = &ext2_file_inode_operations;
		inode->i_fop = &ext2_file_operations;
		/* written into folios of up to 64 KiB (aops.c, delalloc.c, writeback.c) */
		mapping_set_large_folios(inode->i_mapping);
	} else if (S_ISDIR(inode->i_mode)) {
		inode->i_op = &ext2_dir_inode_operations;
		inode->i_fop = &ext2_dir_operations;
	} else if (S_ISLNK(inode->i_mode)) {
		inode->i_op = ext2_inode_is_fast_symlink(inode) ?
				      &ext2_fast_symlink_inode_operations :
				      &ext2_symlink_inode_operations;
	} else {
		inode->i_op = &ext2_special_inode_operations;
		if (S_ISCHR(inode->i_mode) || S_ISBLK(inode->i_mode))
			init_special_inode(inode, inode->i_mode, inode->i_rdev);
	}
}

static bool ext2_valid_mode(umode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
	case S_IFDIR:
	case S_IFLNK:
	case S_IFCHR:
	case S_IFBLK:
	case S_IFIFO:
	case S_IFSOCK:
		return true;
	}
	return false;
}

/* Fill the VFS inode from the on-disk one; -EIO (logged) if it cannot be a live inode. */
static int ext2_fill_inode(struct inode *inode, const struct ext2_inode *raw)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	struct super_block *sb = inode->i_sb;
	u64 size;

	inode->i_mode = le16_to_cpu(raw->i_mode);
	inode->i_uid = le16_to_cpu(raw->i_uid) | (u32)le16_to_cpu(raw->i_uid_high) << 16;
	inode->i_gid = le16_to_cpu(raw->i_gid) | (u32)le16_to_cpu(raw->i_gid_high) << 16;
	set_nlink(inode, le16_to_cpu(raw->i_links_count));
	size = le32_to_cpu(raw->i_size);
	if (S_ISREG(inode->i_mode))
		size |= (u64)le32_to_cpu(raw->i_size_high) << 32;
	inode->i_size = (loff_t)size; /* negative if the disk says >= 2^63: refused below */
	ei->i_disksize = inode->i_size;
	inode->i_atime = (struct timespec64){ (s32)le32_to_cpu(raw->i_atime), 0 };
	inode->i_ctime = (struct timespec64){ (s32)le32_to_cpu(raw->i_ctime), 0 };
	inode->i_mtime = (struct timespec64){ (s32)le32_to_cpu(raw->i_mtime), 0 };
	inode->i_blocks = le32_to_cpu(raw->i_blocks);
	inode->i_generation = le32_to_cpu(raw->i_generation);
	inode->i_blkbits = sb->s_blocksize_bits;
	ei->i_dtime = le32_to_cpu(raw->i_dtime);
	ei->i_flags = le32_to_cpu(raw->i_flags);
	ei->i_file_acl = le32_to_cpu(raw->i_file_acl);
	for (int i = 0; i < EXT2_N_BLOCKS; i++)
		ei->i_data[i] = le32_to_cpu(raw->i_block[i]);
	ei->i_block_group = (u32)((inode->i_ino - 1) / EXT2_SB(sb)->s_inodes_per_group);

	/* an orphan's i_dtime names the next one: the mount that frees them reads them */
	if (!inode->i_nlink && (!inode->i_mode || (ei->i_dtime && !EXT2_SB(sb)->s_orphan_cleanup))) {
		ext2_error(sb, "ext2_iget", "inode %lu: deleted inode referenced", inode->i_ino);
		return -EIO;
	}
	/* extents: fs/ext4/inode.c checks them on type ext4 mounts; ext2 has none */
	if (!ext2_valid_mode(inode->i_mode) ||
	    ((ei->i_flags & EXT4_EXTENTS_FL) && !EXT2_SB(sb)->s_family) || inode->i_size < 0 ||
	    (S_ISREG(inode->i_mode) && inode->i_size > sb->s_maxbytes)) {
		ext2_error(sb, "ext2_iget", "inode %lu: corrupt (mode %o, flags %#x, size %lld)",
			   inode->i_ino, inode->i_mode, ei->i_flags, inode->i_size);
		return -EIO;
	}
	if (ei->i_file_acl && ext2_block_pointer_problem(inode, ei->i_file_acl)) {
		ext2_error(sb, "ext2_iget", "inode %lu: bad extended attribute block %u",
			   inode->i_ino, ei->i_file_acl);
		return -EIO;
	}
	if (S_ISCHR(inode->i_mode) || S_ISBLK(inode->i_mode))
		inode->i_rdev = ext2_decode_dev(ei->i_data);
	return 0;
}

/* Any inode, reserved ones too (ext4's journal inode): callers know which they ask for. */
struct inode *ext2_iget_special(struct super_block *sb, unsigned long ino)
{
	struct buffer_head *bh;
	struct ext2_inode *raw;
	struct inode *inode = iget_locked(sb, ino);
	const struct ext2_family_ops *family = ext2_family(sb);
	int err;

	if (!inode)
		return ERR_PTR(-ENOMEM);
	if (!(inode->i_state & I_NEW))
		return inode;
	raw = ext2_get_raw_inode(sb, ino, &bh);
	if (IS_ERR(raw)) {
		iget_failed(inode);
		return ERR_PTR(PTR_ERR(raw));
	}
	err = family ? family->check_raw_inode(sb, ino, (const u8 *)raw) : 0;
	if (!err)
		err = ext2_fill_inode(inode, raw);
	if (!err && family)
		err = family->fill_inode(inode, (const u8 *)raw);
	brelse(bh);
	if (err) {
		/* i_nlink must not say "unlinked": eviction would free what it does not own */
		set_nlink(inode, 1);
		EXT2_I(inode)->i_flags = 0;
		inode->i_mode = 0;
		iget_failed(inode);
		return ERR_PTR(err);
	}
	EXT2_I(inode)->i_loaded = true;
	ext2_set_inode_ops(inode);
	unlock_new_inode(inode);
	return inode;
}

/* An inode a directory entry may name: the root or a number past the reserved ones. */
struct inode *ext2_iget(struct super_block *sb, unsigned long ino)
{
	if (ino != EXT2_ROOT_INO && ino < EXT2_SB(sb)->s_first_ino) {
		ext2_error(sb, "ext2_get_raw_inode", "bad inode number: %lu", ino);
		return ERR_PTR(-EIO);
	}
	return ext2_iget_special(sb, ino);
}

loff_t ext2_disk_size(struct inode *inode)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	loff_t size;

	if (!ext2_inode_delalloc(inode))
		return inode->i_size;
	spin_lock(&ei->i_block_reservation_lock);
	size = min(inode->i_size, ei->i_disksize);
	spin_unlock(&ei->i_block_reservation_lock);
	return size;
}

void ext2_update_disksize(struct inode *inode, loff_t size)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	bool grew = false;

	spin_lock(&ei->i_block_reservation_lock);
	size = min(size, inode->i_size);
	if (size > ei->i_disksize) {
		ei->i_disksize = size;
		grew = true;
	}
	spin_unlock(&ei->i_block_reservation_lock);
	if (grew)
		mark_inode_dirty(inode);
}

void ext2_set_disksize(struct inode *inode, loff_t size)
{
	struct ext2_inode_info *ei = EXT2_I(inode);

	spin_lock(&ei->i_block_reservation_lock);
	ei->i_disksize = size;
	spin_unlock(&ei->i_block_reservation_lock);
}

static void ext2_fill_raw(struct inode *inode, struct ext2_inode *raw)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	loff_t size = ext2_disk_size(inode);

	raw->i_mode = cpu_to_le16((u16)inode->i_mode);
	raw->i_uid = cpu_to_le16((u16)inode->i_uid);
	raw->i_uid_high = cpu_to_le16((u16)(inode->i_uid >> 16));
	raw->i_gid = cpu_to_le16((u16)inode->i_gid);
	raw->i_gid_high = cpu_to_le16((u16)(inode->i_gid >> 16));
	raw->i_links_count = cpu_to_le16((u16)inode->i_nlink);
	raw->i_size = cpu_to_le32((u32)size);
	if (S_ISREG(inode->i_mode))
		raw->i_size_high = cpu_to_le32((u32)((u64)size >> 32));
	raw->i_atime = cpu_to_le32((u32)inode->i_atime.tv_sec);
	raw->i_ctime = cpu_to_le32((u32)inode->i_ctime.tv_sec);
	raw->i_mtime = cpu_to_le32((u32)inode->i_mtime.tv_sec);
	raw->i_dtime = cpu_to_le32(ei->i_dtime);
	raw->i_blocks = cpu_to_le32((u32)inode->i_blocks);
	raw->i_flags = cpu_to_le32(ei->i_flags);
	raw->i_file_acl = cpu_to_le32(ei->i_file_acl);
	raw->i_generation = cpu_to_le32(inode->i_generation);
	if (S_ISCHR(inode->i_mode) || S_ISBLK(inode->i_mode))
		ext2_encode_dev(inode->i_rdev, ei->i_data);
	for (int i = 0; i < EXT2_N_BLOCKS; i++)
		raw->i_block[i] = cpu_to_le32(ei->i_data[i]);
}

/* Files above 2 GiB need the large_file feature recorded (mke2fs sets it already). */
static void ext2_set_large_file(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);

	if (ext2_has_ro_compat(sb, EXT2_FEATURE_RO_COMPAT_LARGE_FILE) ||
	    le32_to_cpu(sbi->s_es->s_rev_level) == EXT2_GOOD_OLD_REV)
		return;
	mutex_lock(&sbi->s_lock);
	sbi->s_es->s_feature_ro_compat |= cpu_to_le32(EXT2_FEATURE_RO_COMPAT_LARGE_FILE);
	mutex_unlock(&sbi->s_lock);
	ext2_sb_dirty_metadata(sb);
}

static int __ext2_write_inode(struct inode *inode, bool sync)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	struct super_block *sb = inode->i_sb;
	struct buffer_head *bh;
	struct ext2_inode *raw;
	int err = 0;
	bool new;

	if (sb->s_flags & SB_RDONLY)
		return 0;
	raw = ext2_get_raw_inode(sb, inode->i_ino, &bh);
	if (IS_ERR(raw))
		return (int)PTR_ERR(raw);
	if (S_ISREG(inode->i_mode) && inode->i_size > 0x7fffffffLL)
		ext2_set_large_file(sb);
	mutex_lock(&ei->truncate_mutex); /* a consistent block map and i_blocks */
	new = ei->i_new;
	if (new)
		memset(raw, 0, EXT2_SB(sb)->s_inode_size);
	ei->i_new = false;
	ext2_fill_raw(inode, raw);
	if (EXT2_SB(sb)->s_family)
		EXT2_SB(sb)->s_family->write_raw_inode(inode, (u8 *)raw, new);
	mutex_unlock(&ei->truncate_mutex);
	ext2_dirty_metadata(sb, bh);
	if (sync) {
		err = sync_dirty_buffer(bh);
		if (err)
			ext2_msg(sb, KERN_ERR, "IO error syncing inode %lu", inode->i_ino);
	}
	brelse(bh);
	return err;
}

/* The inode into its buffer now (the journal's flush at a commit, and eviction). */
int ext2_update_inode(struct inode *inode)
{
	return __ext2_write_inode(inode, false);
}

/*
 * With a journal the inode reaches its buffer at the next commit (it is on the running
 * transaction's list since mark_inode_dirty()): a sync write is a commit. Not sync(2)'s,
 * as Linux's ext4_write_inode(): ->sync_fs commits once after every inode is written,
 * where a commit per inode made syncing 500 small files take twice Linux's time.
 */
int ext2_write_inode(struct inode *inode, struct writeback_control *wbc)
{
	struct super_block *sb = inode->i_sb;

	if (EXT2_SB(sb)->s_journal) {
		bool commit = wbc->sync_mode == WB_SYNC_ALL && !wbc->for_sync;
		int err = commit ? ext2_family(sb)->force_commit(sb) : 0;

		return err < 0 ? err : 0;
	}
	return __ext2_write_inode(inode, wbc->sync_mode == WB_SYNC_ALL);
}

/* mark_inode_dirty() of a journalled inode: the running transaction takes note. */
void ext2_dirty_inode(struct inode *inode, int flags)
{
	(void)flags;
	if (EXT2_SB(inode->i_sb)->s_journal)
		ext2_family(inode->i_sb)->dirty_inode(inode);
}

/*
 * The last reference to an inode went. If it was unlinked, everything it owns on disk goes
 * back: blocks, extended attribute block, and its number (after the inode is written with
 * its deletion time, which e2fsck expects of a free inode).
 */
static void __ext2_evict_inode(struct inode *inode);

/* Eviction is one handle with a journal: the inode's last state, its freeing if unlinked. */
void ext2_evict_inode(struct inode *inode)
{
	struct super_block *sb = inode->i_sb;
	bool journalled = EXT2_SB(sb)->s_journal && EXT2_I(inode)->i_loaded;
	int err;

	ext2_unwritten_wait_all(inode); /* before the handle: a conversion takes one */
	err = journalled ? ext2_journal_start(sb) : -EROFS;

	__ext2_evict_inode(inode);
	if (!err) {
		ext2_family(sb)->evict_inode(inode); /* after: freeing it dirtied it again */
		ext2_journal_stop(sb);
	}
}

static void __ext2_evict_inode(struct inode *inode)
{
	struct ext2_inode_info *ei = EXT2_I(inode);

	ext2_discard_reservation(inode);
	if (inode->i_nlink || !ei->i_loaded || (inode->i_sb->s_flags & SB_RDONLY))
		return;
	if (ext2_family(inode->i_sb))
		ext2_family(inode->i_sb)->orphan_del(inode);
	ei->i_dtime = (u32)ktime_get_real_seconds();
	inode->i_size = 0;
	if (inode->i_blocks)
		ext2_truncate_blocks(inode, 0);
	ext2_xattr_delete_inode(inode);
	__ext2_write_inode(inode, false);
	ext2_free_inode(inode);
}

static int ext2_setsize(struct inode *inode, loff_t size)
{
	int err;

	if (!S_ISREG(inode->i_mode))
		return S_ISDIR(inode->i_mode) ? -EISDIR : -EINVAL;
	if (size > inode->i_sb->s_maxbytes)
		return -EFBIG;
	if (EXT2_I(inode)->i_flags & (EXT2_APPEND_FL | EXT2_IMMUTABLE_FL))
		return -EPERM;
	err = ext2_zero_tail(inode, min(size, inode->i_size));
	if (err)
		return err;
	if (size != inode->i_size)
		inode->i_mtime = inode->i_ctime = current_time(inode);
	truncate_setsize(inode, size);
	ext2_set_disksize(inode, size); /* a hole reads zeros: the disk may say it at once */
	return ext2_truncate_blocks(inode, size);
}

static int __ext2_setattr(struct dentry *dentry, struct iattr *attr);

int ext2_setattr(struct dentry *dentry, struct iattr *attr)
{
	return EXT2_JOURNALLED(dentry->d_inode->i_sb, __ext2_setattr(dentry, attr));
}

static int __ext2_setattr(struct dentry *dentry, struct iattr *attr)
{
	struct inode *inode = dentry->d_inode;
	int err = 0;

	if ((attr->ia_valid & ATTR_SIZE))
		err = ext2_setsize(inode, attr->ia_size);
	if (err)
		return err;
	setattr_copy(inode, attr);
	mark_inode_dirty(inode);
	return 0;
}
