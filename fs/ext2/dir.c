/*
 * Directories: blocks of variable-length entries, each rec_len long, the last one of a
 * block reaching its end. A deleted entry is merged into the one before it (or, first in
 * its block, gets inode 0); a new entry takes the slack of an entry whose rec_len is
 * longer than its name needs, or a new block at the end.
 *
 * Every block is checked when read: an entry that is too short for its name, misaligned,
 * crosses the block end or names an inode past the last one is corruption (-EIO, logged
 * with the directory's inode number and the offset). Hashed (dir_index) directories are
 * read as the linear directories they also are; on a type ext2 mount any change clears
 * EXT2_INDEX_FL so that the stale index is never trusted again (e2fsck rebuilds it if
 * asked). A type ext4 mount keeps the index (its dx_add_entry adds through it; removals
 * leave it right) and the checksum tail at the end of each leaf (dir_tail_len bytes that
 * are not entries).
 *
 * Directory blocks are metadata buffers in the block device's cache. Callers hold the
 * directory's i_rwsem (the VFS takes it for namespace operations).
 */
#include "ext2.h"
#include <cgwb/errno.h>
#include <cgwb/string.h>

#define DT_SOCK_EXT2 12

static const unsigned char ext2_ft_to_dt[EXT2_FT_MAX] = {
	[EXT2_FT_UNKNOWN] = DT_UNKNOWN, [EXT2_FT_REG_FILE] = DT_REG, [EXT2_FT_DIR] = DT_DIR,
	[EXT2_FT_CHRDEV] = DT_CHR,      [EXT2_FT_BLKDEV] = DT_BLK,   [EXT2_FT_FIFO] = DT_FIFO,
	[EXT2_FT_SOCK] = DT_SOCK_EXT2,  [EXT2_FT_SYMLINK] = DT_LNK,
};

static u8 ext2_type_by_mode(struct inode *dir, umode_t mode)
{
	if (!ext2_has_incompat(dir->i_sb, EXT2_FEATURE_INCOMPAT_FILETYPE))
		return EXT2_FT_UNKNOWN;
	switch (mode & S_IFMT) {
	case S_IFREG:
		return EXT2_FT_REG_FILE;
	case S_IFDIR:
		return EXT2_FT_DIR;
	case S_IFCHR:
		return EXT2_FT_CHRDEV;
	case S_IFBLK:
		return EXT2_FT_BLKDEV;
	case S_IFIFO:
		return EXT2_FT_FIFO;
	case S_IFSOCK:
		return EXT2_FT_SOCK;
	case S_IFLNK:
		return EXT2_FT_SYMLINK;
	}
	return EXT2_FT_UNKNOWN;
}

static struct ext2_dir_entry_2 *dirent_at(struct buffer_head *bh, unsigned int offset)
{
	return (struct ext2_dir_entry_2 *)(bh->b_data + offset);
}

static unsigned int rec_len(const struct ext2_dir_entry_2 *de)
{
	return le16_to_cpu(de->rec_len);
}

/*
 * Whether a walk may step over the entry at off of a block of size bytes. A block is
 * checked whole once per read (ext2_dir_bread()), but a corrupt image can give one block
 * two roles, and the mark another role's check left then skips that check: so every walk
 * also checks what it steps by, as Linux's ext4_check_dir_entry() in each of its walks.
 * Otherwise a zero rec_len loops for ever.
 */
bool ext2_dirent_steps(struct inode *dir, struct buffer_head *bh, unsigned int off, unsigned int size)
{
	unsigned int len = size - off >= EXT2_DIR_REC_LEN(1) ? rec_len(dirent_at(bh, off)) : 0;

	if (len >= EXT2_DIR_REC_LEN(1) && len <= size - off)
		return true;
	ext2_error(dir->i_sb, "ext2_dirent_steps",
		   "directory #%lu: block %llu: bad entry at offset %u (rec_len %u)", dir->i_ino,
		   (unsigned long long)bh->b_blocknr, off, len);
	return false;
}

void ext2_set_dir_changed(struct inode *dir)
{
	dir->i_mtime = dir->i_ctime = current_time(dir);
	if (!ext2_family(dir->i_sb))
		EXT2_I(dir)->i_flags &= ~EXT2_INDEX_FL;
	mark_inode_dirty(dir);
}

/* The bytes of a leaf block entries may use: the checksum tail is not theirs. */
static unsigned int ext2_dir_space(struct inode *dir)
{
	const struct ext2_family_ops *family = ext2_family(dir->i_sb);

	return (unsigned int)dir->i_sb->s_blocksize - (family ? family->dir_tail_len(dir->i_sb) : 0);
}

/* A leaf block changed (new: just made, its tail too): its checksum, then dirty. */
static void ext2_dir_block_dirty(struct inode *dir, struct buffer_head *bh, bool new)
{
	const struct ext2_family_ops *family = ext2_family(dir->i_sb);

	if (family)
		family->dirblock_csum_set(dir, bh, new);
	ext2_dirty_metadata(dir->i_sb, bh);
}

/* Number of blocks of a directory, whose size must be a whole number of blocks. */
static long ext2_dir_blocks(struct inode *dir)
{
	if (dir->i_size & (loff_t)(dir->i_sb->s_blocksize - 1)) {
		ext2_error(dir->i_sb, "ext2_dir_blocks",
			   "directory #%lu: size %lld is not a multiple of the block size",
			   dir->i_ino, dir->i_size);
		return -EIO;
	}
	return (long)(dir->i_size >> dir->i_sb->s_blocksize_bits);
}

static int ext2_check_dir_block(struct inode *dir, struct buffer_head *bh, unsigned long n)
{
	struct super_block *sb = dir->i_sb;
	unsigned int size = (unsigned int)sb->s_blocksize, off = 0;
	const struct ext2_family_ops *family = ext2_family(sb);
	const char *why = NULL;
	struct ext2_dir_entry_2 *de = NULL;

	if (family && family->dirblock_csum_verify(dir, (const u8 *)bh->b_data, n, &why)) {
		ext2_error(sb, "ext4_read_dirblock", "directory #%lu: block %lu: %s", dir->i_ino, n,
			   why);
		return -EIO;
	}
	while (off < size && !why) {
		if (size - off < EXT2_DIR_REC_LEN(1)) {
			why = "directory entry across blocks";
			break;
		}
		de = dirent_at(bh, off);
		if (rec_len(de) < EXT2_DIR_REC_LEN(1))
			why = "rec_len is smaller than minimal";
		else if (rec_len(de) & 3)
			why = "unaligned directory entry";
		else if (rec_len(de) < EXT2_DIR_REC_LEN(de->name_len))
			why = "rec_len is too small for name_len";
		else if (rec_len(de) > size - off)
			why = "directory entry across blocks";
		else if (le32_to_cpu(de->inode) > EXT2_SB(sb)->s_inodes_count)
			why = "inode out of bounds";
		else
			off += rec_len(de);
	}
	if (!why)
		return 0;
	ext2_error(sb, "ext2_check_dir_block",
		   "bad entry in directory #%lu: %s - offset=%llu, inode=%u, rec_len=%u, "
		   "name_len=%u",
		   dir->i_ino, why, ((unsigned long long)n << sb->s_blocksize_bits) + off,
		   de && size - off >= 8 ? le32_to_cpu(de->inode) : 0,
		   de && size - off >= 8 ? rec_len(de) : 0, de && size - off >= 8 ? de->name_len : 0);
	return -EIO;
}

struct buffer_head *ext2_dir_bread(struct inode *dir, unsigned long n)
{
	struct super_block *sb = dir->i_sb;
	struct buffer_head *bh;
	bool new;
	u32 bno;
	int ret = ext2_get_blocks(dir, n, 1, &bno, 0, &new);

	if (ret < 0)
		return ERR_PTR(ret);
	if (!ret) {
		ext2_error(sb, __func__, "directory #%lu contains a hole at offset %llu",
			   dir->i_ino, (unsigned long long)n << sb->s_blocksize_bits);
		return ERR_PTR(-EIO);
	}
	bh = sb_bread(sb, bno);
	if (!bh) {
		ext2_error(sb, __func__, "directory #%lu: cannot read block %u", dir->i_ino, bno);
		return ERR_PTR(-EIO);
	}
	/* checked once per read from the disk, as Linux's ext2_check_page() and ext4's
	 * buffer_verified: what the filesystem changes in it since stays valid */
	if (buffer_verified(bh))
		return bh;
	ret = ext2_check_dir_block(dir, bh, n);
	if (ret) {
		brelse(bh);
		return ERR_PTR(ret);
	}
	set_buffer_verified(bh);
	return bh;
}

/* readdir: ctx->pos is a byte offset; one that is not on an entry resumes at the next one. */
int ext2_readdir(struct file *file, struct dir_context *ctx)
{
	struct inode *dir = file->f_inode;
	unsigned int bits = dir->i_sb->s_blocksize_bits, size = 1u << bits;
	bool types = ext2_has_incompat(dir->i_sb, EXT2_FEATURE_INCOMPAT_FILETYPE);
	long nblocks = ext2_dir_blocks(dir);

	if (nblocks < 0)
		return (int)nblocks;
	for (unsigned long n = (unsigned long)(ctx->pos >> bits); n < (unsigned long)nblocks; n++) {
		struct buffer_head *bh = ext2_dir_bread(dir, n);
		loff_t base = (loff_t)n << bits;

		if (IS_ERR(bh))
			return (int)PTR_ERR(bh);
		for (unsigned int off = 0; off < size; off += rec_len(dirent_at(bh, off))) {
			struct ext2_dir_entry_2 *de = dirent_at(bh, off);
			unsigned int ft;

			if (!ext2_dirent_steps(dir, bh, off, size)) {
				brelse(bh);
				return -EIO;
			}
			ft = types && de->file_type < EXT2_FT_MAX ? de->file_type : 0;
			if (base + off < ctx->pos || !de->inode)
				continue;
			ctx->pos = base + off;
			if (!dir_emit(ctx, de->name, de->name_len, le32_to_cpu(de->inode),
				      ext2_ft_to_dt[ft])) {
				brelse(bh);
				return 0;
			}
		}
		ctx->pos = base + size;
		brelse(bh);
	}
	return 0;
}

static bool ext2_match(const struct qstr *name, const struct ext2_dir_entry_2 *de)
{
	return de->inode && de->name_len == name->len && !memcmp(name->name, de->name, name->len);
}

struct ext2_dir_entry_2 *ext2_search_dir_block(struct inode *dir, struct buffer_head *bh,
					       unsigned int size, const struct qstr *name)
{
	for (unsigned int off = 0; off < size; off += rec_len(dirent_at(bh, off))) {
		if (!ext2_dirent_steps(dir, bh, off, size))
			return ERR_PTR(-EIO);
		if (ext2_match(name, dirent_at(bh, off)))
			return dirent_at(bh, off);
	}
	return NULL;
}

/*
 * The entry for name (its block in *bhp, referenced), NULL if there is none, or an ERR_PTR.
 * An indexed directory of an ext4 mount is searched through its index (fs/ext4/namei.c)
 * unless the index cannot be followed. Otherwise the search starts where the last one
 * hit: lookups in one directory tend to cluster.
 */
struct ext2_dir_entry_2 *ext2_find_entry(struct inode *dir, const struct qstr *name,
					 struct buffer_head **bhp)
{
	struct ext2_inode_info *ei = EXT2_I(dir);
	unsigned int size = (unsigned int)dir->i_sb->s_blocksize;
	long nblocks = ext2_dir_blocks(dir);
	unsigned long start;

	if (nblocks <= 0)
		return nblocks < 0 ? ERR_PTR(nblocks) : NULL;
	if (ext2_family(dir->i_sb)) {
		struct ext2_dir_entry_2 *de = ext2_family(dir->i_sb)->dx_find_entry(dir, name, bhp);

		if (!IS_ERR(de) || PTR_ERR(de) != -EOPNOTSUPP)
			return de;
	}
	start = ei->i_dir_start_lookup < (unsigned long)nblocks ? ei->i_dir_start_lookup : 0;
	for (long i = 0; i < nblocks; i++) {
		unsigned long n = (start + (unsigned long)i) % (unsigned long)nblocks;
		struct buffer_head *bh = ext2_dir_bread(dir, n);
		struct ext2_dir_entry_2 *de;

		if (IS_ERR(bh))
			return (struct ext2_dir_entry_2 *)bh;
		de = ext2_search_dir_block(dir, bh, size, name);
		if (IS_ERR(de)) {
			brelse(bh);
			return de;
		}
		if (de) {
			ei->i_dir_start_lookup = (u32)n;
			*bhp = bh;
			return de;
		}
		brelse(bh);
	}
	return NULL;
}

u32 ext2_inode_by_name(struct inode *dir, const struct qstr *name, int *errp)
{
	struct buffer_head *bh;
	struct ext2_dir_entry_2 *de = ext2_find_entry(dir, name, &bh);
	u32 ino;

	*errp = 0;
	if (IS_ERR_OR_NULL(de)) {
		*errp = de ? (int)PTR_ERR(de) : 0;
		return 0;
	}
	ino = le32_to_cpu(de->inode);
	brelse(bh);
	return ino;
}

/* Put the entry (ino, name) into de, splitting off the slack of a live entry first. */
static void ext2_fill_entry(struct inode *dir, struct buffer_head *bh, struct ext2_dir_entry_2 *de,
			    const struct qstr *name, struct inode *inode)
{
	if (de->inode) {
		unsigned int used = EXT2_DIR_REC_LEN(de->name_len);
		struct ext2_dir_entry_2 *next = (struct ext2_dir_entry_2 *)((char *)de + used);

		next->rec_len = cpu_to_le16((u16)(rec_len(de) - used));
		de->rec_len = cpu_to_le16((u16)used);
		de = next;
	}
	de->name_len = (u8)name->len;
	memcpy(de->name, name->name, name->len);
	de->file_type = ext2_type_by_mode(dir, inode->i_mode);
	de->inode = cpu_to_le32((u32)inode->i_ino);
	ext2_dir_block_dirty(dir, bh, false);
}

/* A room for an entry needing reclen bytes in block bh, or NULL; -EEXIST if name is there. */
static struct ext2_dir_entry_2 *ext2_find_room(struct inode *dir, struct buffer_head *bh,
					       unsigned int size, const struct qstr *name,
					       unsigned int reclen)
{
	for (unsigned int off = 0; off < size; off += rec_len(dirent_at(bh, off))) {
		struct ext2_dir_entry_2 *de = dirent_at(bh, off);
		unsigned int used;

		if (!ext2_dirent_steps(dir, bh, off, size))
			return ERR_PTR(-EIO);
		used = de->inode ? EXT2_DIR_REC_LEN(de->name_len) : 0;
		if (ext2_match(name, de))
			return ERR_PTR(-EEXIST);
		if (rec_len(de) >= used + reclen)
			return de;
	}
	return NULL;
}

/* A new, empty block at the end of the directory (one unused entry spanning it). */
struct buffer_head *ext2_dir_append_block(struct inode *dir)
{
	unsigned long n = (unsigned long)(dir->i_size >> dir->i_sb->s_blocksize_bits);
	struct buffer_head *bh;
	bool new;
	u32 bno;
	int ret = ext2_get_blocks(dir, n, 1, &bno, EXT2_GET_BLOCKS_CREATE, &new);

	if (ret < 0)
		return ERR_PTR(ret);
	bh = sb_getblk(dir->i_sb, bno);
	if (!bh) {
		ext2_truncate_blocks(dir, dir->i_size);
		return ERR_PTR(-EIO);
	}
	lock_buffer(bh);
	memset(bh->b_data, 0, bh->b_size);
	dirent_at(bh, 0)->rec_len = cpu_to_le16((u16)ext2_dir_space(dir));
	set_buffer_uptodate(bh);
	unlock_buffer(bh);
	ext2_dir_block_dirty(dir, bh, true);
	dir->i_size += (loff_t)bh->b_size;
	mark_inode_dirty(dir);
	return bh;
}

int ext2_add_entry_to_block(struct inode *dir, struct buffer_head *bh, const struct qstr *name,
			    struct inode *inode)
{
	struct ext2_dir_entry_2 *de =
		ext2_find_room(dir, bh, ext2_dir_space(dir), name, EXT2_DIR_REC_LEN(name->len));

	if (IS_ERR_OR_NULL(de))
		return de ? (int)PTR_ERR(de) : -ENOSPC;
	ext2_fill_entry(dir, bh, de, name, inode);
	return 0;
}

int ext2_add_link(struct inode *dir, const struct qstr *name, struct inode *inode)
{
	const struct ext2_family_ops *family = ext2_family(dir->i_sb);
	unsigned int size = ext2_dir_space(dir);
	unsigned int reclen = EXT2_DIR_REC_LEN(name->len);
	long nblocks = ext2_dir_blocks(dir);
	struct ext2_dir_entry_2 *de = NULL;
	struct buffer_head *bh = NULL;

	if (nblocks < 0)
		return (int)nblocks;
	if (!name->len || name->len > EXT2_NAME_LEN)
		return name->len ? -ENAMETOOLONG : -EINVAL;
	if (family) {
		int err = family->dx_add_entry(dir, name, inode);

		if (err <= 0) {
			if (!err)
				ext2_set_dir_changed(dir);
			return err;
		}
	}
	for (long n = 0; n < nblocks && !de; n++) {
		bh = ext2_dir_bread(dir, (unsigned long)n);
		if (IS_ERR(bh))
			return (int)PTR_ERR(bh);
		de = ext2_find_room(dir, bh, size, name, reclen);
		if (IS_ERR(de)) {
			brelse(bh);
			return (int)PTR_ERR(de);
		}
		if (!de)
			brelse(bh);
	}
	if (!de) {
		bh = ext2_dir_append_block(dir);
		if (IS_ERR(bh))
			return (int)PTR_ERR(bh);
		de = dirent_at(bh, 0);
	}
	ext2_fill_entry(dir, bh, de, name, inode);
	brelse(bh);
	ext2_set_dir_changed(dir);
	return 0;
}

/* Remove de (in bh) by merging it into the entry before it, if any. */
int ext2_delete_entry(struct inode *dir, struct ext2_dir_entry_2 *de, struct buffer_head *bh)
{
	unsigned int target = (unsigned int)((char *)de - bh->b_data);
	struct ext2_dir_entry_2 *prev = NULL;

	for (unsigned int off = 0; off < target; off += rec_len(dirent_at(bh, off))) {
		if (!ext2_dirent_steps(dir, bh, off, target))
			return -EIO;
		prev = dirent_at(bh, off);
	}
	if (prev)
		prev->rec_len = cpu_to_le16((u16)(rec_len(prev) + rec_len(de)));
	de->inode = 0;
	ext2_dir_block_dirty(dir, bh, false);
	ext2_set_dir_changed(dir);
	return 0;
}

/* The first block of a new directory: "." and "..". */
int ext2_make_empty(struct inode *inode, struct inode *parent)
{
	struct buffer_head *bh = ext2_dir_append_block(inode);
	struct ext2_dir_entry_2 *de;

	if (IS_ERR(bh))
		return (int)PTR_ERR(bh);
	de = dirent_at(bh, 0);
	de->inode = cpu_to_le32((u32)inode->i_ino);
	de->name_len = 1;
	de->rec_len = cpu_to_le16(EXT2_DIR_REC_LEN(1));
	memcpy(de->name, ".", 1);
	de->file_type = ext2_type_by_mode(inode, S_IFDIR);
	de = dirent_at(bh, EXT2_DIR_REC_LEN(1));
	de->inode = cpu_to_le32((u32)parent->i_ino);
	de->name_len = 2;
	de->rec_len = cpu_to_le16((u16)(ext2_dir_space(inode) - EXT2_DIR_REC_LEN(1)));
	memcpy(de->name, "..", 2);
	de->file_type = ext2_type_by_mode(inode, S_IFDIR);
	ext2_dir_block_dirty(inode, bh, false);
	brelse(bh);
	return 0;
}

static bool ext2_is_dot_entry(struct inode *dir, const struct ext2_dir_entry_2 *de)
{
	if (de->name_len == 1 && de->name[0] == '.')
		return le32_to_cpu(de->inode) == dir->i_ino;
	return de->name_len == 2 && de->name[0] == '.' && de->name[1] == '.';
}

/* 1 if only "." and ".." are left, 0 if not, or -errno. */
int ext2_empty_dir(struct inode *inode)
{
	unsigned int size = (unsigned int)inode->i_sb->s_blocksize;
	long nblocks = ext2_dir_blocks(inode);

	if (nblocks < 0)
		return (int)nblocks;
	for (long n = 0; n < nblocks; n++) {
		struct buffer_head *bh = ext2_dir_bread(inode, (unsigned long)n);
		if (IS_ERR(bh))
			return (int)PTR_ERR(bh);
		for (unsigned int off = 0; off < size; off += rec_len(dirent_at(bh, off))) {
			struct ext2_dir_entry_2 *de = dirent_at(bh, off);

			if (!ext2_dirent_steps(inode, bh, off, size)) {
				brelse(bh);
				return -EIO;
			}
			if (de->inode && !ext2_is_dot_entry(inode, de)) {
				brelse(bh);
				return 0;
			}
		}
		brelse(bh);
	}
	return 1;
}

/*
 * Point an existing entry at another inode: a rename over a name (the directory's times
 * change), or the ".." of a moved directory (they do not: its contents did not change).
 */
void ext2_set_link(struct inode *dir, struct ext2_dir_entry_2 *de, struct buffer_head *bh,
		   struct inode *inode, bool update_times)
{
	de->inode = cpu_to_le32((u32)inode->i_ino);
	de->file_type = ext2_type_by_mode(dir, inode->i_mode);
	ext2_dir_block_dirty(dir, bh, false);
	if (update_times) {
		ext2_set_dir_changed(dir);
	} else if (!ext2_family(dir->i_sb)) {
		EXT2_I(dir)->i_flags &= ~EXT2_INDEX_FL;
		mark_inode_dirty(dir);
	}
}

/* The ".." entry: the second one of the first block. */
struct ext2_dir_entry_2 *ext2_dotdot(struct inode *dir, struct buffer_head **bhp, int *errp)
{
	struct buffer_head *bh = dir->i_size ? ext2_dir_bread(dir, 0) : ERR_PTR(-EIO);
	struct ext2_dir_entry_2 *de;
	unsigned int off;

	*errp = 0;
	if (IS_ERR(bh)) {
		*errp = (int)PTR_ERR(bh);
		return NULL;
	}
	off = rec_len(dirent_at(bh, 0));
	de = off < bh->b_size ? dirent_at(bh, off) : NULL;
	if (!de || de->name_len != 2 || memcmp(de->name, "..", 2)) {
		ext2_error(dir->i_sb, __func__, "directory #%lu: no '..' entry", dir->i_ino);
		brelse(bh);
		*errp = -EIO;
		return NULL;
	}
	*bhp = bh;
	return de;
}

const struct file_operations ext2_dir_operations = {
	.iterate = ext2_readdir,
	.llseek = generic_file_llseek,
	.fsync = ext2_fsync,
};
