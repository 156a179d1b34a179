/*
 * ext4's share of reading an inode (fs/ext2/inode.c does the rest): the extra space of a
 * large inode must fit in it, the checksum must match before anything in the inode is
 * believed, i_blocks has 16 more bits with huge_file (and counts filesystem blocks when
 * the inode says so), timestamps have nanoseconds and two more bits of seconds in the
 * extra space, and an extent-mapped inode's tree root is checked once, here, so that
 * lookups can trust it.
 */
#include "ext4.h"
#include <cgwb/errno.h>
#include <cgwb/string.h>

#define EXT4_GOOD_OLD_INODE_SIZE 128

static u16 raw_le16(const u8 *raw, unsigned int off)
{
	return (u16)(raw[off] | raw[off + 1] << 8);
}

int ext4_check_raw_inode(struct super_block *sb, unsigned long ino, const u8 *raw)
{
	unsigned int size = EXT2_SB(sb)->s_inode_size, extra;

	if (size <= EXT4_GOOD_OLD_INODE_SIZE)
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

/*
 * The extra half of a timestamp, when the inode's extra space holds it: nanoseconds, and
 * two more bits of seconds past 2038 (added to the sign-extended 32 bits, as Linux).
 */
static void ext4_decode_extra_time(const u8 *raw, unsigned int off, struct timespec64 *t)
{
	u32 extra;

	if (EXT4_GOOD_OLD_INODE_SIZE + (unsigned int)raw_le16(raw, EXT4_INODE_EXTRA_ISIZE) < off + 4)
		return;
	extra = (u32)raw_le16(raw, off) | (u32)raw_le16(raw, off + 2) << 16;
	t->tv_sec += (s64)(extra & 3) << 32;
	t->tv_nsec = extra >> 2;
}

static void ext4_inode_times(struct inode *inode, const u8 *raw)
{
	if (EXT2_SB(inode->i_sb)->s_inode_size <= EXT4_GOOD_OLD_INODE_SIZE)
		return;
	ext4_decode_extra_time(raw, EXT4_INODE_CTIME_EXTRA, &inode->i_ctime);
	ext4_decode_extra_time(raw, EXT4_INODE_MTIME_EXTRA, &inode->i_mtime);
	ext4_decode_extra_time(raw, EXT4_INODE_ATIME_EXTRA, &inode->i_atime);
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

	ei->i_csum_seed = ext4_inode_csum_seed(sb, inode->i_ino, inode->i_generation);
	ext4_inode_times(inode, raw);
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

/* ---------------------------------------------------------------- writing */

static void raw_put_le16(u8 *raw, unsigned int off, u16 v)
{
	raw[off] = (u8)v;
	raw[off + 1] = (u8)(v >> 8);
}

static void raw_put_le32(u8 *raw, unsigned int off, u32 v)
{
	raw_put_le16(raw, off, (u16)v);
	raw_put_le16(raw, off + 2, (u16)(v >> 16));
}

/* A new inode's extra space: what the superblock wants (mke2fs: 32), within the inode. */
static u16 ext4_new_extra_isize(struct super_block *sb)
{
	struct ext2_super_block *es = EXT2_SB(sb)->s_es;
	unsigned int room = EXT2_SB(sb)->s_inode_size - EXT4_GOOD_OLD_INODE_SIZE;
	unsigned int want = le16_to_cpu(es->s_want_extra_isize);

	want = max(want, (unsigned int)le16_to_cpu(es->s_min_extra_isize));
	return (u16)min(want ? want : 32u, room);
}

static void ext4_encode_extra_time(u8 *raw, unsigned int off, const struct timespec64 *t)
{
	u32 epoch = (u32)((t->tv_sec - (s64)(s32)t->tv_sec) >> 32) & 3;

	if (EXT4_GOOD_OLD_INODE_SIZE + (unsigned int)raw_le16(raw, EXT4_INODE_EXTRA_ISIZE) >= off + 4)
		raw_put_le32(raw, off, epoch | (u32)t->tv_nsec << 2);
}

/*
 * A new inode: the checksum seed its blocks chain from, and on images with extents an
 * empty extent root for files and directories (symlinks stay fast, or block-mapped).
 */
void ext4_init_inode(struct inode *inode, struct inode *dir)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	struct super_block *sb = inode->i_sb;
	struct ext4_extent_header *eh = (void *)ei->i_data;

	(void)dir;
	ei->i_csum_seed = ext4_inode_csum_seed(sb, inode->i_ino, inode->i_generation);
	if (!ext2_has_incompat(sb, EXT4_FEATURE_INCOMPAT_EXTENTS) ||
	    !(S_ISREG(inode->i_mode) || S_ISDIR(inode->i_mode)))
		return;
	ei->i_flags |= EXT4_EXTENTS_FL;
	memset(ei->i_data, 0, sizeof(ei->i_data));
	eh->eh_magic = cpu_to_le16(EXT4_EXT_MAGIC);
	eh->eh_max = cpu_to_le16((sizeof(ei->i_data) - sizeof(*eh)) / sizeof(struct ext4_extent));
}

/*
 * What ext4 keeps past ext2's fields: i_blocks' high bits (in 512-byte units: a huge_file
 * flag read from disk is dropped, as Linux drops it when the count fits), the extra size of
 * a new inode, the timestamps' nanoseconds and epoch bits, and last the checksum.
 */
void ext4_write_raw_inode(struct inode *inode, u8 *raw, bool new)
{
	struct super_block *sb = inode->i_sb;
	struct ext2_inode *r = (struct ext2_inode *)raw;

	if (EXT2_I(inode)->i_flags & EXT4_HUGE_FILE_FL) {
		EXT2_I(inode)->i_flags &= ~EXT4_HUGE_FILE_FL;
		r->i_flags = cpu_to_le32(EXT2_I(inode)->i_flags);
	}
	if (ext2_has_ro_compat(sb, EXT4_FEATURE_RO_COMPAT_HUGE_FILE))
		raw_put_le16(raw, EXT4_INODE_BLOCKS_HIGH, (u16)(inode->i_blocks >> 32));
	if (EXT2_SB(sb)->s_inode_size > EXT4_GOOD_OLD_INODE_SIZE) {
		if (new)
			raw_put_le16(raw, EXT4_INODE_EXTRA_ISIZE, ext4_new_extra_isize(sb));
		ext4_encode_extra_time(raw, EXT4_INODE_CTIME_EXTRA, &inode->i_ctime);
		ext4_encode_extra_time(raw, EXT4_INODE_MTIME_EXTRA, &inode->i_mtime);
		ext4_encode_extra_time(raw, EXT4_INODE_ATIME_EXTRA, &inode->i_atime);
	}
	ext4_inode_csum_set(sb, inode->i_ino, raw);
}
