/*
 * Inode allocation through the per-group inode bitmaps.
 *
 * Placement: a file goes in its directory's group (its blocks will follow it there); a new
 * directory goes in a group with at least the average number of free inodes and the most
 * free blocks, which spreads directory trees over the disk so they have room to grow. A
 * type ext4 mount of a flex_bg image places by flex groups instead (find_inode_group).
 *
 * Locking: the choice of group and the search of its bitmap run under sbi->s_lock, a
 * mutex (the search may read inode table blocks); only this file sets inode bits, so a
 * bit found clear under it stays clear. Setting the bit and changing the descriptor's
 * counts take the group's lock too (sb_bgl_lock()): the descriptor and its checksum are
 * shared with the block allocator, which takes only that. Freeing an inode takes the
 * group's lock alone. The filesystem's free inodes are s_freeinodes_counter, moved after
 * the group's lock is let go. The placement sums the descriptors instead (it walks them
 * all anyway): compared with one group's count, the counter's cheap read could say that
 * no group has the average. Without the groups' locks the sum may be a moment old, but
 * only frees move counts meanwhile, upwards: some group still has the average.
 *
 * The bitmap is not trusted alone: a number whose bit is clear is refused if the inode is
 * still cached or its on-disk copy is live (links, or a mode without a deletion time). Its
 * bit is set again, the error is recorded, and the search goes on: handing it out would let
 * a new file overwrite a live one, which no later check could undo.
 */
#include "ext2.h"
#include <cgwb/errno.h>
#include <cgwb/string.h>

u32 ext2_count_free_inodes(struct super_block *sb)
{
	u32 n = 0;

	for (unsigned int g = 0; g < EXT2_SB(sb)->s_groups_count; g++)
		n += le16_to_cpu(ext2_get_group_desc(sb, g, NULL)->bg_free_inodes_count);
	return n;
}

static struct buffer_head *read_inode_bitmap(struct super_block *sb, unsigned int group)
{
	u32 block = le32_to_cpu(ext2_get_group_desc(sb, group, NULL)->bg_inode_bitmap);
	struct buffer_head *bh = sb_bread(sb, block);

	if (!bh)
		ext2_error(sb, __func__,
			   "cannot read inode bitmap - block_group = %u, inode_bitmap = %u", group,
			   block);
	return bh;
}

static int find_group_dir(struct super_block *sb, unsigned int parent_group)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	u32 avg = ext2_count_free_inodes(sb) / sbi->s_groups_count;
	int best = -1;
	u32 best_blocks = 0;

	for (unsigned int i = 0; i < sbi->s_groups_count; i++) {
		unsigned int g = (parent_group + i) % sbi->s_groups_count;
		struct ext2_group_desc *gd = ext2_get_group_desc(sb, g, NULL);
		u32 fi = le16_to_cpu(gd->bg_free_inodes_count);
		u32 fb = le16_to_cpu(gd->bg_free_blocks_count);

		if (fi && fi >= avg && (best < 0 || fb > best_blocks)) {
			best = (int)g;
			best_blocks = fb;
		}
	}
	return best;
}

/* The parent's group if it has room, then a quadratic probe, then any group with inodes. */
static int find_group_other(struct super_block *sb, unsigned int parent_group)
{
	unsigned int ngroups = EXT2_SB(sb)->s_groups_count;
	struct ext2_group_desc *gd = ext2_get_group_desc(sb, parent_group, NULL);
	unsigned int g = parent_group;

	if (gd->bg_free_inodes_count && gd->bg_free_blocks_count)
		return (int)parent_group;
	for (unsigned int step = 1; step < ngroups; step <<= 1) {
		g = (g + step) % ngroups;
		gd = ext2_get_group_desc(sb, g, NULL);
		if (gd->bg_free_inodes_count && gd->bg_free_blocks_count)
			return (int)g;
	}
	for (unsigned int i = 0; i < ngroups; i++) {
		g = (parent_group + i) % ngroups;
		if (ext2_get_group_desc(sb, g, NULL)->bg_free_inodes_count)
			return (int)g;
	}
	return -1;
}

/*
 * Is inode ino still in use although its bitmap bit is clear? 1: in use, 0: free, or -EIO
 * if its inode table block cannot be read. s_lock held (this may sleep).
 */
static int inode_in_use(struct super_block *sb, unsigned long ino)
{
	struct buffer_head *bh;
	struct ext2_inode *raw;
	bool live;

	if (icache_has_live_inode(sb, ino))
		return 1;
	raw = ext2_get_raw_inode(sb, ino, &bh);
	if (IS_ERR(raw))
		return (int)PTR_ERR(raw);
	/* e2fsck's test: a deleted inode has no links and a deletion time (or was never used) */
	live = raw->i_links_count || (raw->i_mode && !raw->i_dtime);
	brelse(bh);
	return live;
}

/* The first clear bit from start whose inode is really free; size if none. s_lock held. */
static long find_free_inode_bit(struct super_block *sb, unsigned int group, struct buffer_head *bh,
				u32 start)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	u32 base = group * sbi->s_inodes_per_group;
	u32 bit = start;

	while ((bit = ext2_find_next_zero_bit((u8 *)bh->b_data, sbi->s_inodes_per_group, bit)) <
	       sbi->s_inodes_per_group) {
		int used = inode_in_use(sb, base + bit + 1);

		if (used < 0)
			return used;
		if (!used)
			return bit;
		ext2_error(sb, "ext2_new_inode",
			   "group %u: inode %u is in use but free in the bitmap", group,
			   base + bit + 1);
		/* the bit goes back on, the free count stays: it was counted as used before */
		spin_lock(sb_bgl_lock(sbi, group));
		ext2_set_bit((u8 *)bh->b_data, bit);
		ext2_group_dirty(sb, group, NULL, bh);
		spin_unlock(sb_bgl_lock(sbi, group));
		bit++;
	}
	return bit;
}

/* Take a free inode bit in group; returns the inode number, 0 if none, or -EIO. s_lock held. */
static long take_inode(struct super_block *sb, unsigned int group, bool dir)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	struct ext2_group_desc *gd = ext2_get_group_desc(sb, group, NULL);
	const struct ext2_family_ops *family = ext2_family(sb);
	u32 base = group * sbi->s_inodes_per_group;
	struct buffer_head *bh;
	u32 start = base + 1 < sbi->s_first_ino ? sbi->s_first_ino - 1 - base : 0;
	long bit;

	if (!gd->bg_free_inodes_count || start >= sbi->s_inodes_per_group)
		return 0;
	bh = read_inode_bitmap(sb, group);
	if (!bh)
		return -EIO;
	bit = find_free_inode_bit(sb, group, bh, start);
	if (bit < 0) {
		brelse(bh);
		return bit;
	}
	if (bit >= sbi->s_inodes_per_group) {
		/* the descriptor said otherwise: its count is wrong, not worth failing for */
		ext2_error(sb, __func__, "group %u: free inodes count %u but the bitmap is full",
			   group, le16_to_cpu(gd->bg_free_inodes_count));
		brelse(bh);
		return 0;
	}
	spin_lock(sb_bgl_lock(sbi, group));
	ext2_set_bit((u8 *)bh->b_data, (u32)bit);
	le16_add_cpu(&gd->bg_free_inodes_count, -1);
	if (dir)
		le16_add_cpu(&gd->bg_used_dirs_count, 1);
	if (family)
		family->inode_taken(sb, group, (u32)bit);
	ext2_group_dirty(sb, group, NULL, bh);
	spin_unlock(sb_bgl_lock(sbi, group));
	brelse(bh);
	percpu_counter_dec(&sbi->s_freeinodes_counter);
	return (long)base + bit + 1;
}

static long alloc_inode_number(struct super_block *sb, struct inode *dir, bool is_dir)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	const struct ext2_family_ops *family = ext2_family(sb);
	unsigned int parent_group = EXT2_I(dir)->i_block_group % sbi->s_groups_count;
	int group = family ? family->find_inode_group(sb, dir, is_dir) : -EOPNOTSUPP;
	long ino = 0;

	if (group == -EOPNOTSUPP)
		group = is_dir ? find_group_dir(sb, parent_group) :
				 find_group_other(sb, parent_group);

	if (group < 0)
		return -ENOSPC;
	for (unsigned int i = 0; i < sbi->s_groups_count && !ino; i++)
		ino = take_inode(sb, ((unsigned int)group + i) % sbi->s_groups_count, is_dir);
	return ino ? ino : -ENOSPC;
}

static u32 inherited_flags(struct inode *dir, umode_t mode)
{
	u32 flags = EXT2_I(dir)->i_flags & EXT2_FL_INHERITED;

	if (S_ISDIR(mode))
		return flags;
	if (S_ISREG(mode))
		return flags & ~EXT2_DIRSYNC_FL;
	return flags & (EXT2_NODUMP_FL | EXT2_NOATIME_FL);
}

/* A new inode in dir's filesystem: allocated on disk, hashed, dirty, one reference. */
struct inode *ext2_new_inode(struct inode *dir, umode_t mode)
{
	struct super_block *sb = dir->i_sb;
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	struct ext2_inode_info *ei;
	struct inode *inode;
	u32 generation = 0;
	long ino;

	if (sb->s_flags & SB_RDONLY)
		return ERR_PTR(-EROFS);
	inode = new_inode(sb);
	if (!inode)
		return ERR_PTR(-ENOMEM);
	mutex_lock(&sbi->s_lock);
	ino = alloc_inode_number(sb, dir, S_ISDIR(mode));
	if (ino > 0)
		generation = sbi->s_next_generation++;
	mutex_unlock(&sbi->s_lock);
	if (ino < 0) {
		iput(inode);
		return ERR_PTR(ino);
	}
	ei = EXT2_I(inode);
	inode_init_owner(inode, dir, mode);
	inode->i_ino = (unsigned long)ino;
	inode->i_blkbits = sb->s_blocksize_bits;
	inode->i_blocks = 0;
	inode->i_size = 0;
	inode->i_mtime = inode->i_atime = inode->i_ctime = current_time(inode);
	inode->i_generation = generation;
	memset(ei->i_data, 0, sizeof(ei->i_data));
	ei->i_flags = inherited_flags(dir, mode);
	ei->i_file_acl = 0;
	ei->i_dtime = 0;
	ei->i_block_group = (u32)((ino - 1) / sbi->s_inodes_per_group);
	ei->i_dir_start_lookup = 0;
	ei->i_next_alloc_block = 0;
	ei->i_next_alloc_goal = 0;
	ei->i_new = true;
	ei->i_loaded = true;
	if (EXT2_SB(sb)->s_family)
		EXT2_SB(sb)->s_family->init_inode(inode, dir);
	insert_inode_hash(inode);
	mark_inode_dirty(inode);
	return inode;
}

/* The inode's number goes back to its bitmap; its blocks are already free. */
void ext2_free_inode(struct inode *inode)
{
	struct super_block *sb = inode->i_sb;
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	unsigned long ino = inode->i_ino;
	struct ext2_group_desc *gd;
	struct buffer_head *bh;
	unsigned int group, bit;
	bool freed;

	if (ino < sbi->s_first_ino || ino > sbi->s_inodes_count) {
		ext2_error(sb, __func__, "reserved or nonexistent inode %lu", ino);
		return;
	}
	group = (unsigned int)((ino - 1) / sbi->s_inodes_per_group);
	bit = (unsigned int)((ino - 1) % sbi->s_inodes_per_group);
	gd = ext2_get_group_desc(sb, group, NULL);
	bh = read_inode_bitmap(sb, group);
	if (!bh)
		return;
	spin_lock(sb_bgl_lock(sbi, group));
	freed = ext2_test_bit((u8 *)bh->b_data, bit);
	if (!freed) {
		ext2_error(sb, __func__, "bit already cleared for inode %lu", ino);
	} else {
		ext2_clear_bit((u8 *)bh->b_data, bit);
		le16_add_cpu(&gd->bg_free_inodes_count, 1);
		if (S_ISDIR(inode->i_mode))
			le16_add_cpu(&gd->bg_used_dirs_count, -1);
		ext2_group_dirty(sb, group, NULL, bh);
	}
	spin_unlock(sb_bgl_lock(sbi, group));
	brelse(bh);
	if (freed)
		percpu_counter_inc(&sbi->s_freeinodes_counter);
}
