/*
 * ext4's share of reading an inode (fs/ext2/inode.c does the rest): the extra space of a
 * large inode must fit in it, the checksum must match before anything in the inode is
 * believed, i_blocks has 16 more bits with huge_file (and counts filesystem blocks when
 * the inode says so), and an extent-mapped inode's tree root is checked once, here, so
 * that lookups can trust it.
 */
#include "ext4.h"
#include <cgwb/errno.h>

#define EXT4_GOOD_OLD_INODE_SIZE 128

static u16 raw_le16(const u8 *raw, unsigned int off)
{
	return (u16)(raw[off] | raw[off + 1] << 8);
}

int ext4_check_raw_inode(struct super_block *sb, unsigned long ino, const u8 *raw)
{
	unsigned int size = EXT2_SB(sb)->s_inode_size, extra;

	if (!EXT2_SB(sb)->s_ext4 || size <= EXT4_GOOD_OLD_INODE_SIZE)
		goto csum;
	extra = raw_le16(raw, EXT4_INODE_EXTRA_ISIZE);
	if (EXT4_GOOD_OLD_INODE_SIZE + extra > size || (extra & 3)) {
		ext2_error(sb, "ext4_iget", "inode #%lu: bad extra_isize %u (inode size %u)", ino,
			   extra, size);
		return -EIO;
	}
csum:
	if (!ext4_inode_csum_verify(sb, ino, raw)) {
		ext2_error(sb, "ext4_iget", "inode #%lu: checksum invalid", ino);
		return -EIO;
	}
	return 0;
}

static bool ext4_has_extent_tree(struct inode *inode)
{
	if (!(EXT2_I(inode)->i_flags & EXT4_EXTENTS_FL))
		return false;
	return S_ISREG(inode->i_mode) || S_ISDIR(inode->i_mode) ||
	       (S_ISLNK(inode->i_mode) && !ext2_inode_is_fast_symlink(inode));
}

int ext4_fill_inode(struct inode *inode, const u8 *raw)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	struct super_block *sb = inode->i_sb;

	if (!EXT2_SB(sb)->s_ext4)
		return 0;
	ei->i_csum_seed = ext4_inode_csum_seed(sb, inode->i_ino, inode->i_generation);
	if (ext2_has_ro_compat(sb, EXT4_FEATURE_RO_COMPAT_HUGE_FILE)) {
		inode->i_blocks |= (u64)raw_le16(raw, EXT4_INODE_BLOCKS_HIGH) << 32;
		if (ei->i_flags & EXT4_HUGE_FILE_FL)
			inode->i_blocks <<= inode->i_blkbits - SECTOR_SHIFT;
	}
	if (raw_le16(raw, EXT4_INODE_FILE_ACL_HIGH)) {
		ext2_error(sb, "ext4_iget", "inode #%lu: extended attribute block above 2^32",
			   inode->i_ino);
		return -EIO;
	}
	if ((ei->i_flags & EXT4_EXTENTS_FL) && !ext2_has_incompat(sb, EXT4_FEATURE_INCOMPAT_EXTENTS)) {
		ext2_error(sb, "ext4_iget", "inode #%lu: extents on a filesystem without them",
			   inode->i_ino);
		return -EIO;
	}
	return ext4_has_extent_tree(inode) ? ext4_ext_check_inode(inode) : 0;
}
