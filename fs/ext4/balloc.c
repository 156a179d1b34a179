/*
 * ext4's share of a group's bookkeeping on a read-write mount: the checksums a change to a
 * group leaves to be set (bitmaps into the descriptor, then the descriptor's own), the
 * groups mke2fs left uninitialised, and bg_itable_unused.
 *
 * Uninitialised groups (BLOCK_UNINIT, INODE_UNINIT: their bitmaps were never written and
 * may hold anything) are initialised when the filesystem becomes writable, all at once,
 * before any allocation can run: Linux builds each lazily on first use, under the group's
 * lock; doing it up front leaves the allocators (fs/ext2/balloc.c, ialloc.c) with bitmaps
 * that are always real, and no lock of their own to take. It costs two block writes per
 * such group, once per image.
 */
#include "ext4.h"
#include <cgwb/errno.h>
#include <cgwb/string.h>

static struct ext4_group_desc *ext4_desc(struct super_block *sb, unsigned int group)
{
	return (struct ext4_group_desc *)ext2_get_group_desc(sb, group, NULL);
}

/* Bits past the group's own up to the end of the bitmap block are set, as mke2fs sets them. */
static void ext4_mark_bitmap_end(u8 *map, u32 bits, u32 end)
{
	for (u32 i = bits; i < end; i++)
		ext2_set_bit(map, i);
}

static void mark_run(struct super_block *sb, unsigned int group, u8 *map, u32 start, u32 count)
{
	u32 first = ext2_group_first_block(sb, group), last = ext2_group_last_block(sb, group);
	u64 end = (u64)start + count;

	for (u64 b = max(start, first); b < end && b <= last; b++)
		ext2_set_bit(map, (u32)(b - first));
}

/*
 * A BLOCK_UNINIT group's blocks in use are metadata only: the system zone's runs that meet
 * the group (any group's bitmaps and tables may be here with flex_bg), or without one the
 * group's own superblock copy, descriptors, bitmaps and inode table.
 */
static void ext4_init_block_bitmap(struct super_block *sb, unsigned int group, u8 *map)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	struct ext2_group_desc *gd = ext2_get_group_desc(sb, group, NULL);
	u32 first = ext2_group_first_block(sb, group);

	memset(map, 0, sb->s_blocksize);
	if (sbi->s_system_zone) {
		for (unsigned int i = 0; i < sbi->s_system_zone_count; i++)
			mark_run(sb, group, map, sbi->s_system_zone[i].start,
				 sbi->s_system_zone[i].count);
	} else {
		mark_run(sb, group, map, first, ext2_group_sb_blocks(sb, group));
		mark_run(sb, group, map, le32_to_cpu(gd->bg_block_bitmap), 1);
		mark_run(sb, group, map, le32_to_cpu(gd->bg_inode_bitmap), 1);
		mark_run(sb, group, map, le32_to_cpu(gd->bg_inode_table), sbi->s_itb_per_group);
	}
	ext4_mark_bitmap_end(map, ext2_group_last_block(sb, group) - first + 1,
			     (u32)sb->s_blocksize * 8);
}

/* Write one bitmap of group as built in memory (the on-disk block is not read). */
static int ext4_write_new_bitmap(struct super_block *sb, unsigned int group, bool inodes)
{
	struct ext4_group_desc *d = ext4_desc(sb, group);
	u32 block = le32_to_cpu(inodes ? d->bg_inode_bitmap_lo : d->bg_block_bitmap_lo);
	struct buffer_head *bh = sb_getblk(sb, block);

	if (!bh) {
		ext2_msg(sb, KERN_ERR, "error: group %u: cannot get bitmap block %u", group, block);
		return -EIO;
	}
	lock_buffer(bh);
	if (inodes) {
		memset(bh->b_data, 0, bh->b_size);
		ext4_mark_bitmap_end((u8 *)bh->b_data, EXT2_SB(sb)->s_inodes_per_group,
				     (u32)sb->s_blocksize * 8);
	} else {
		ext4_init_block_bitmap(sb, group, (u8 *)bh->b_data);
	}
	set_buffer_uptodate(bh);
	unlock_buffer(bh);
	d->bg_flags &= cpu_to_le16(inodes ? ~EXT4_BG_INODE_UNINIT : ~EXT4_BG_BLOCK_UNINIT);
	ext2_group_dirty(sb, group, inodes ? NULL : bh, inodes ? bh : NULL);
	brelse(bh);
	return 0;
}

/* Before the first write: every uninitialised bitmap made real (the file's comment). */
int ext4_init_uninit_groups(struct super_block *sb)
{
	for (unsigned int g = 0; g < EXT2_SB(sb)->s_groups_count; g++) {
		u16 flags = le16_to_cpu(ext4_desc(sb, g)->bg_flags);
		int err = 0;

		if (flags & EXT4_BG_BLOCK_UNINIT)
			err = ext4_write_new_bitmap(sb, g, false);
		if (!err && (flags & EXT4_BG_INODE_UNINIT))
			err = ext4_write_new_bitmap(sb, g, true);
		if (err)
			return err;
	}
	return 0;
}

void ext4_group_csum_set(struct super_block *sb, unsigned int group,
			 struct buffer_head *block_bitmap, struct buffer_head *inode_bitmap)
{
	struct ext4_group_desc *d = ext4_desc(sb, group);

	if (block_bitmap)
		ext4_bitmap_csum_set(sb, d, (const u8 *)block_bitmap->b_data, false);
	if (inode_bitmap)
		ext4_bitmap_csum_set(sb, d, (const u8 *)inode_bitmap->b_data, true);
	ext4_group_desc_csum_set(sb, group, d);
}

/*
 * bg_itable_unused counts the inode table's never-used slots at its end: e2fsck reads no
 * further. An inode taken past them moves the mark (the group's lock held, as for the
 * bitmap: sb_bgl_lock()).
 */
void ext4_inode_taken(struct super_block *sb, unsigned int group, u32 bit)
{
	struct ext4_group_desc *d = ext4_desc(sb, group);
	u32 ipg = EXT2_SB(sb)->s_inodes_per_group;
	u32 unused = le16_to_cpu(d->bg_itable_unused_lo);

	if (EXT2_SB(sb)->s_desc_size >= EXT4_MIN_DESC_SIZE_64BIT)
		unused |= (u32)le16_to_cpu(d->bg_itable_unused_hi) << 16;
	if (bit < ipg - min(unused, ipg))
		return;
	unused = ipg - bit - 1;
	d->bg_itable_unused_lo = cpu_to_le16((u16)unused);
	if (EXT2_SB(sb)->s_desc_size >= EXT4_MIN_DESC_SIZE_64BIT)
		d->bg_itable_unused_hi = cpu_to_le16((u16)(unused >> 16));
}
