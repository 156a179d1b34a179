/*
 * The ext4 filesystem type: what a mount checks of an ext4 image before fs/ext2/'s mount
 * goes on with it (features, the checksum seed and the superblock's checksum, 64-bit
 * geometry), and the type's registration.
 *
 * Policy, where Linux's ext4 has it and where this driver does not yet:
 *  - an unknown incompat feature refuses the mount; an unknown ro_compat one allows only a
 *    read-only mount (Linux's rules, and its messages);
 *  - a journal that needs recovery is replayed first (journal.c), even for a read-only
 *    mount, as Linux does; journals on another device are refused (journal_dev);
 *  - a read-write mount needs an image without a journal (the journal's write side is
 *    missing); every feature read is kept right when writing;
 *  - block numbers must fit in 32 bits (64bit images of less than 16 TiB at 4 KiB).
 */
#include "ext4.h"
#include <cgwb/errno.h>

#define EXT4_BAD(sb, ...)                                                          \
	({                                                                         \
		ext2_msg(sb, KERN_ERR, "error: corrupt superblock: " __VA_ARGS__); \
		-EIO;                                                              \
	})

/* A read-write mount keeps every feature it reads right; its journal is inside the fs. */
static int ext4_check_writable(struct super_block *sb)
{
	struct ext2_super_block *es = EXT2_SB(sb)->s_es;

	if ((le32_to_cpu(es->s_feature_compat) & EXT3_FEATURE_COMPAT_HAS_JOURNAL) &&
	    !es->s_journal_inum) {
		ext2_msg(sb, KERN_ERR, "error: external journals are not supported: mount read-only");
		return -EROFS;
	}
	return 0;
}

int ext4_check_features(struct super_block *sb, int flags)
{
	struct ext2_super_block *es = EXT2_SB(sb)->s_es;
	u32 incompat = le32_to_cpu(es->s_feature_incompat);
	u32 ro = le32_to_cpu(es->s_feature_ro_compat) & ~EXT4_FEATURE_RO_COMPAT_SUPP;

	if ((incompat & EXT3_FEATURE_INCOMPAT_RECOVER) &&
	    !(le32_to_cpu(es->s_feature_compat) & EXT3_FEATURE_COMPAT_HAS_JOURNAL)) {
		ext2_msg(sb, KERN_ERR, "error: needs_recovery without a journal: run e2fsck");
		return -EINVAL;
	}
	incompat &= ~(EXT4_FEATURE_INCOMPAT_SUPP | EXT3_FEATURE_INCOMPAT_RECOVER);
	if (incompat) {
		ext2_msg(sb, KERN_ERR,
			 "error: couldn't mount because of unsupported optional features (%x)",
			 incompat);
		return -EINVAL;
	}
	if (flags & SB_RDONLY)
		return 0;
	if (ro) {
		ext2_msg(sb, KERN_ERR,
			 "error: couldn't mount RDWR because of unsupported optional features (%x)",
			 ro);
		return -EROFS;
	}
	return ext4_check_writable(sb);
}

/* 64bit: descriptors of s_desc_size bytes, and (here) block counts that fit in 32 bits. */
static int ext4_check_64bit(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	struct ext2_super_block *es = sbi->s_es;

	if (!ext2_has_incompat(sb, EXT4_FEATURE_INCOMPAT_64BIT))
		return 0;
	if (sbi->s_desc_size < EXT4_MIN_DESC_SIZE_64BIT || sbi->s_desc_size > EXT4_MAX_DESC_SIZE ||
	    !is_power_of_2(sbi->s_desc_size))
		return EXT4_BAD(sb, "group descriptor size %u", sbi->s_desc_size);
	if (es->s_blocks_count_hi || es->s_r_blocks_count_hi || es->s_free_blocks_count_hi) {
		ext2_msg(sb, KERN_ERR, "error: filesystems of 2^32 blocks or more are not supported");
		return -EINVAL;
	}
	return 0;
}

const char *ext4_group_desc_problem(struct super_block *sb, unsigned int group, const void *gd)
{
	const struct ext4_group_desc *d = gd;

	if (!ext4_group_desc_csum_verify(sb, group, gd))
		return "checksum invalid";
	if (EXT2_SB(sb)->s_desc_size >= EXT4_MIN_DESC_SIZE_64BIT &&
	    (d->bg_block_bitmap_hi || d->bg_inode_bitmap_hi || d->bg_inode_table_hi))
		return "metadata above block 2^32";
	return NULL;
}

/*
 * Extent-mapped files address 2^32 - 1 logical blocks; without huge_file, i_blocks counts
 * 512-byte sectors in 32 bits, which is the lower limit with 1 KiB blocks.
 */
static loff_t ext4_max_size(unsigned int blkbits, bool huge_file)
{
	u64 blocks = 0xffffffffULL;

	if (!huge_file)
		blocks = min(blocks, 0xffffffffULL >> (blkbits - SECTOR_SHIFT));
	return (loff_t)(blocks << blkbits);
}

/* The ext4 side of a mount, after ext2's geometry and feature checks, before descriptors. */
int ext4_load_super(struct super_block *sb)
{
	struct ext2_super_block *es = EXT2_SB(sb)->s_es;

	if (ext2_has_incompat(sb, EXT4_FEATURE_INCOMPAT_EXTENTS))
		sb->s_maxbytes =
			max(sb->s_maxbytes,
			    ext4_max_size(sb->s_blocksize_bits,
					  ext2_has_ro_compat(sb, EXT4_FEATURE_RO_COMPAT_HUGE_FILE)));

	if (ext4_has_metadata_csum(sb)) {
		if (es->s_checksum_type != EXT4_CRC32C_CHKSUM) {
			ext2_msg(sb, KERN_ERR, "error: unknown checksum algorithm %u",
				 es->s_checksum_type);
			return -EINVAL;
		}
		if (!ext4_superblock_csum_verify(sb)) {
			ext2_msg(sb, KERN_ERR, "error: invalid superblock checksum, run e2fsck");
			return -EIO;
		}
		ext4_init_csum_seed(sb);
	}
	return ext4_check_64bit(sb);
}

/*
 * statfs's overhead as Linux's ext4 counts it: what mke2fs recorded (s_overhead_clusters:
 * metadata, reserved descriptor blocks, the journal), if it did and it is believable; 0
 * otherwise, and the caller counts ext2's way.
 */
static u32 ext4_overhead_blocks(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	u32 overhead = le32_to_cpu(sbi->s_es->s_overhead_clusters);

	return overhead < sbi->s_blocks_count ? overhead : 0;
}

/* Before the first write: uninitialised groups made real (in place), then the journal. */
static int ext4_make_writable(struct super_block *sb)
{
	return ext4_init_uninit_groups(sb) ?: ext4_journal_start_rw(sb);
}

/* What type ext4 adds to fs/ext2/'s driver: the one place ext2 reaches ext4. */
static const struct ext2_family_ops ext4_family_ops = {
	.check_features = ext4_check_features,
	.load_super = ext4_load_super,
	.group_desc_problem = ext4_group_desc_problem,
	.load_descriptors = ext4_setup_system_zone,
	.recover = ext4_recover_journal,
	.release = ext4_release_system_zone,
	.overhead_blocks = ext4_overhead_blocks,
	.in_system_zone = ext4_in_system_zone,
	.check_raw_inode = ext4_check_raw_inode,
	.fill_inode = ext4_fill_inode,
	.get_blocks = ext4_get_blocks,
	.convert_unwritten = ext4_convert_unwritten_extents,
	.dirblock_csum_verify = ext4_dirblock_csum_verify,
	.dx_find_entry = ext4_dx_find_entry,
	.truncate_blocks = ext4_ext_truncate,
	.super_csum_set = ext4_superblock_csum_set,
	.make_writable = ext4_make_writable,
	.group_csum_set = ext4_group_csum_set,
	.inode_taken = ext4_inode_taken,
	.find_inode_group = ext4_find_inode_group,
	.orphan_add = ext4_orphan_add,
	.orphan_del = ext4_orphan_del,
	.orphan_cleanup = ext4_orphan_cleanup,
	.init_inode = ext4_init_inode,
	.write_raw_inode = ext4_write_raw_inode,
	.dir_tail_len = ext4_dir_tail_len,
	.dirblock_csum_set = ext4_dirblock_csum_set,
	.dx_add_entry = ext4_dx_add_entry,
	.parse_option = ext4_parse_option,
	.journal_start = ext4_journal_start,
	.journal_stop = ext4_journal_stop,
	.dirty_metadata = ext4_dirty_metadata,
	.forget = ext4_forget,
	.dirty_inode = ext4_dirty_inode,
	.evict_inode = ext4_evict_inode,
	.ordered_data = ext4_ordered_data,
	.force_commit = ext4_force_commit,
	.make_readonly = ext4_journal_stop_rw,
};

static struct super_block *ext4_mount(struct file_system_type *fs_type, int flags,
				      const char *dev_name, void *data)
{
	return ext2_mount_family(fs_type, flags, dev_name, data, &ext4_family_ops);
}

static struct file_system_type ext4_fs_type = {
	.name = "ext4",
	.mount = ext4_mount,
	.kill_sb = kill_block_super,
	.requires_dev = true,
};

int ext4_init(void)
{
	return register_filesystem(&ext4_fs_type);
}
