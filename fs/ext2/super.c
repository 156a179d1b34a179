/*
 * The ext2 superblock: mounting (finding and checking the superblock, loading the group
 * descriptors, the root inode), the on-disk state across a mount (not clean until umount),
 * statfs, sync, remount and umount. Nothing of the driver calls into it but the types'
 * mounts: what the other files need of the superblock, reporting errors and writing
 * metadata, is in error.c and metadata.c.
 *
 * The free block and inode counts live in ext2_sb_info while mounted, as per-CPU counters
 * set from the group descriptors at mount (the allocators move them with the descriptors'
 * counts), and their sums are copied into the on-disk superblock whenever it is written
 * (ext2_commit_super()).
 */
#include "ext2.h"
#include <cgwb/blkdev.h>
#include <cgwb/jiffies.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>

#define EXT2_DFL_MAX_MNT_COUNT 20

static int ext2_sync_fs(struct super_block *sb, int wait)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	int err = 0;

	if (sb->s_flags & SB_RDONLY)
		return 0;
	if (wait && sbi->s_family)
		ext2_unwritten_wait_sb(sb); /* written data converted before the commit */
	if (sbi->s_journal) {
		/*
		 * The commit makes the metadata stable and its checkpoint writes it home, the
		 * superblock with it. Written in place here, the superblock would carry the
		 * free counts of whatever transaction runs beside this sync.
		 */
		if (!wait)
			return 0;
		err = sbi->s_family->force_commit(sb);
		ext2_check_bdev_write_error(sb, __func__);
		return err;
	}
	if (wait) {
		/* bitmaps and inode tables first: a failure there must mark this superblock */
		sync_blockdev(sb->s_bdev);
		ext2_check_bdev_write_error(sb, __func__);
	}
	err = ext2_commit_super(sb, wait);
	for (unsigned int i = 0; wait && i < sbi->s_gdb_count; i++) {
		int e = sync_dirty_buffer(sbi->s_group_desc[i]);
		if (!err)
			err = e;
	}
	if (wait)
		ext2_check_bdev_write_error(
			sb, __func__); /* the superblock's and descriptors' own writes */
	return err;
}

static void ext2_release_sbi(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);

	if (!sbi)
		return;
	ext2_rsv_destroy(sb);
	ext2_pending_frees_destroy(sb);
	percpu_counter_destroy(&sbi->s_freeblocks_counter);
	percpu_counter_destroy(&sbi->s_freeinodes_counter);
	percpu_counter_destroy(&sbi->s_dirtyclusters_counter);
	if (sbi->s_family)
		sbi->s_family->release(sb);
	for (unsigned int i = 0; sbi->s_group_desc && i < sbi->s_gdb_count; i++)
		brelse(sbi->s_group_desc[i]);
	kfree(sbi->s_group_desc);
	brelse(sbi->s_sbh);
	kfree(sbi);
	sb->s_fs_info = NULL;
}

/* Umount: every metadata buffer first, then the superblock saying "clean" last. */
static void ext2_put_super(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);

	if (!sbi)
		return;
	if (!(sb->s_flags & SB_RDONLY)) {
		if (sbi->s_family && sbi->s_family->make_readonly(sb))
			ext2_msg(sb, KERN_ERR, "error: the journal's last commit failed");
		sync_blockdev(sb->s_bdev);
		ext2_check_bdev_write_error(sb, __func__); /* "clean" only if it is */
		sbi->s_es->s_state = cpu_to_le16(sbi->s_mount_state);
		if (ext2_commit_super(sb, true))
			ext2_msg(sb, KERN_ERR, "error: could not write the superblock at umount");
		blkdev_issue_flush(sb->s_bdev);
	}
	ext2_release_sbi(sb);
}

static u32 ext2_overhead_blocks(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	u32 overhead = sbi->s_first_data_block;

	/* what Linux's ext2 counts: superblock and descriptor copies, bitmaps, inode tables */
	for (unsigned int g = 0; g < sbi->s_groups_count; g++)
		if (ext2_group_has_super(sb, g))
			overhead += 1 + sbi->s_gdb_count;
	return overhead + sbi->s_groups_count * (2 + sbi->s_itb_per_group);
}

static int ext2_statfs(struct dentry *dentry, struct kstatfs *buf)
{
	struct super_block *sb = dentry->d_sb;
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	u32 reserved = le32_to_cpu(sbi->s_es->s_r_blocks_count);
	u32 overhead = sbi->s_family ? sbi->s_family->overhead_blocks(sb) : 0;

	buf->f_type = EXT2_SUPER_MAGIC;
	buf->f_bsize = (long)sb->s_blocksize;
	buf->f_blocks = sbi->s_blocks_count - (overhead ?: ext2_overhead_blocks(sb));
	buf->f_bfree = (u64)percpu_counter_sum_positive(&sbi->s_freeblocks_counter);
	/* blocks reserved by delayed writes are as good as used, as in Linux's ext4_statfs */
	buf->f_bfree -=
		min(buf->f_bfree, (u64)percpu_counter_sum_positive(&sbi->s_dirtyclusters_counter));
	buf->f_ffree = (u64)percpu_counter_sum_positive(&sbi->s_freeinodes_counter);
	buf->f_bavail = buf->f_bfree > reserved ? buf->f_bfree - reserved : 0;
	buf->f_files = sbi->s_inodes_count;
	buf->f_namelen = EXT2_NAME_LEN;
	return 0;
}

/* A read-write mount: the disk says "not clean" until umount. */
static int ext2_setup_super(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	struct ext2_super_block *es = sbi->s_es;
	s16 max_mnt = (s16)le16_to_cpu(es->s_max_mnt_count);
	int err = sbi->s_family ? sbi->s_family->make_writable(sb) : 0;

	if (err)
		return err;
	if (!(sbi->s_mount_state & EXT2_VALID_FS))
		ext2_msg(sb, KERN_WARNING,
			 "warning: mounting unchecked fs, running e2fsck is recommended");
	else if (sbi->s_mount_state & EXT2_ERROR_FS)
		ext2_msg(sb, KERN_WARNING,
			 "warning: mounting fs with errors, running e2fsck is recommended");
	else if (max_mnt >= 0 && le16_to_cpu(es->s_mnt_count) >= (u16)max_mnt)
		ext2_msg(sb, KERN_WARNING,
			 "warning: maximal mount count reached, running e2fsck is recommended");
	if (!max_mnt)
		es->s_max_mnt_count = cpu_to_le16(EXT2_DFL_MAX_MNT_COUNT);
	le16_add_cpu(&es->s_mnt_count, 1);
	es->s_mtime = cpu_to_le32((u32)ktime_get_real_seconds());
	es->s_state &= cpu_to_le16(~EXT2_VALID_FS);
	err = ext2_commit_super(sb, true);
	if (!err && sbi->s_family)
		err = sbi->s_family->orphan_cleanup(sb);
	return err;
}

/* errors=continue|remount-ro|panic; anything else is refused, as Linux's ext2 does. */
static int ext2_parse_options(struct super_block *sb, const char *opts)
{
	static const char *const behaviours[] = {
		[EXT2_ERRORS_CONTINUE] = "continue",
		[EXT2_ERRORS_RO] = "remount-ro",
		[EXT2_ERRORS_PANIC] = "panic",
	};
	struct ext2_sb_info *sbi = EXT2_SB(sb);

	while (opts && *opts) {
		size_t len = strcspn(opts, ",");
		unsigned int b = 0;

		for (unsigned int i = 1; i < ARRAY_SIZE(behaviours) && !b; i++)
			if (len == 7 + strlen(behaviours[i]) && !strncmp(opts, "errors=", 7) &&
			    !strncmp(opts + 7, behaviours[i], len - 7))
				b = i;
		if (b) {
			sbi->s_errors = (u16)b;
			sbi->s_errors_panic_asked = b == EXT2_ERRORS_PANIC;
		} else if (!sbi->s_family || sbi->s_family->parse_option(sb, opts, len)) {
			ext2_msg(sb, KERN_ERR,
				 "error: unrecognized mount option \"%.*s\" or missing value",
				 (int)len, opts);
			return -EINVAL;
		}
		opts += len;
		if (*opts == ',')
			opts++;
	}
	return 0;
}

/* The superblock's default error behaviour; an unknown value reads as continue, as Linux. */
static void ext2_default_errors(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	u16 e = le16_to_cpu(sbi->s_es->s_errors);

	sbi->s_errors = e == EXT2_ERRORS_RO || e == EXT2_ERRORS_PANIC ? e : EXT2_ERRORS_CONTINUE;
	sbi->s_errors_panic_asked = false;
}

static int ext2_remount(struct super_block *sb, int *flags, char *data)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	u32 ro_unknown = le32_to_cpu(sbi->s_es->s_feature_ro_compat) & ~EXT2_FEATURE_RO_COMPAT_SUPP;
	bool nodelalloc = sbi->s_nodelalloc;
	int err;

	err = ext2_parse_options(sb, data);
	/* pages may hold delayed blocks: delalloc stays as mounted (Linux refuses a change) */
	sbi->s_nodelalloc = nodelalloc;
	if (err)
		return err;
	if ((*flags & SB_RDONLY) == (sb->s_flags & SB_RDONLY))
		return 0;
	if (*flags & SB_RDONLY) {
		err = sbi->s_family ? sbi->s_family->make_readonly(sb) : 0;
		if (err)
			return err;
		sync_blockdev(sb->s_bdev);
		sbi->s_es->s_state = cpu_to_le16(sbi->s_mount_state);
		err = ext2_commit_super(sb, true);
		sb->s_flags |= SB_RDONLY;
		return err;
	}
	/* type ext4 mounts ext4 features read-only: writing them needs what the mount checks */
	err = sbi->s_family ? sbi->s_family->check_features(sb, *flags) : 0;
	if (err)
		return err;
	if (ro_unknown && !sbi->s_family) {
		ext2_msg(sb, KERN_ERR,
			 "couldn't remount RDWR because of unsupported optional features (%x)",
			 ro_unknown);
		return -EROFS;
	}
	sbi->s_mount_state = le16_to_cpu(sbi->s_es->s_state);
	sb->s_flags &= ~SB_RDONLY;
	return ext2_setup_super(sb);
}

static const struct super_operations ext2_sops = {
	.alloc_inode = ext2_alloc_inode,
	.destroy_inode = ext2_destroy_inode,
	.write_inode = ext2_write_inode,
	.dirty_inode = ext2_dirty_inode,
	.evict_inode = ext2_evict_inode,
	.put_super = ext2_put_super,
	.sync_fs = ext2_sync_fs,
	.statfs = ext2_statfs,
	.remount_fs = ext2_remount,
};

/* ---------------------------------------------------------------- mount */

/* The block holding the superblock at blocksize size, if it has ext2's magic. */
static struct buffer_head *ext2_sb_at(struct super_block *sb, unsigned int size, unsigned int *offset)
{
	sector_t block = size == EXT2_MIN_BLOCK_SIZE ? 1 : 0;
	struct ext2_super_block *es;
	struct buffer_head *bh;

	if (!sb_set_blocksize(sb, (int)size)) {
		ext2_msg(sb, KERN_ERR, "error: unable to set blocksize %u", size);
		return ERR_PTR(-EINVAL);
	}
	bh = sb_bread(sb, block);
	if (!bh) {
		ext2_msg(sb, KERN_ERR, "error: unable to read superblock (blocksize %u)", size);
		return ERR_PTR(-EIO);
	}
	*offset = (unsigned int)(EXT2_SB_OFFSET - block * size);
	es = (struct ext2_super_block *)(bh->b_data + *offset);
	if (le16_to_cpu(es->s_magic) != EXT2_SUPER_MAGIC) {
		ext2_msg(sb, KERN_ERR,
			 "error: can't find an ext2 filesystem: bad magic number %#x (blocksize "
			 "%u)",
			 le16_to_cpu(es->s_magic), size);
		brelse(bh);
		return ERR_PTR(-EIO);
	}
	return bh;
}

/*
 * Read the block holding the superblock at the filesystem's block size. The first look is
 * with 1 KiB blocks (the superblock sits at byte 1024 whatever the block size).
 */
static struct buffer_head *ext2_read_sb_block(struct super_block *sb, unsigned int *offset)
{
	struct buffer_head *bh = ext2_sb_at(sb, EXT2_MIN_BLOCK_SIZE, offset);
	unsigned int log;

	if (IS_ERR(bh))
		return bh;
	log = le32_to_cpu(((struct ext2_super_block *)(bh->b_data + *offset))->s_log_block_size);
	if (!log)
		return bh;
	brelse(bh); /* buffers of another size must not be busy when the size changes */
	if (log > EXT2_MAX_BLOCK_LOG_SIZE - EXT2_MIN_BLOCK_LOG_SIZE) {
		ext2_msg(sb, KERN_ERR, "error: unsupported blocksize (s_log_block_size %u)", log);
		return ERR_PTR(-EIO);
	}
	return ext2_sb_at(sb, EXT2_MIN_BLOCK_SIZE << log, offset);
}

static int ext2_check_features(struct super_block *sb, int flags)
{
	struct ext2_super_block *es = EXT2_SB(sb)->s_es;
	u32 incompat = le32_to_cpu(es->s_feature_incompat) & ~EXT2_FEATURE_INCOMPAT_SUPP;
	u32 ro = le32_to_cpu(es->s_feature_ro_compat) & ~EXT2_FEATURE_RO_COMPAT_SUPP;

	if (le32_to_cpu(es->s_rev_level) == EXT2_GOOD_OLD_REV)
		return 0; /* revision 0 has no feature fields: whatever is there means nothing */
	if (EXT2_SB(sb)->s_family)
		return EXT2_SB(sb)->s_family->check_features(sb, flags);
	if (incompat) {
		ext2_msg(sb, KERN_ERR,
			 "error: couldn't mount because of unsupported optional features (%x)",
			 incompat);
		return -EINVAL;
	}
	if (ro && !(flags & SB_RDONLY)) {
		ext2_msg(sb, KERN_ERR,
			 "error: couldn't mount RDWR because of unsupported optional features (%x)",
			 ro);
		return -EROFS;
	}
	return 0;
}

#define SB_BAD(sb, ...)                                                            \
	({                                                                         \
		ext2_msg(sb, KERN_ERR, "error: corrupt superblock: " __VA_ARGS__); \
		-EIO;                                                              \
	})

/* The geometry must be self-consistent and fit the device before anything is read by it. */
static int ext2_check_geometry(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	struct ext2_super_block *es = sbi->s_es;
	u64 dev_blocks = (bdev_nr_sectors(sb->s_bdev) << SECTOR_SHIFT) >> sb->s_blocksize_bits;
	u32 bits = (u32)sb->s_blocksize * 8;
	u32 rev = le32_to_cpu(es->s_rev_level);

	if (rev > EXT2_DYNAMIC_REV)
		return SB_BAD(sb, "unknown revision level %u", rev);
	if (sbi->s_inode_size < EXT2_GOOD_OLD_INODE_SIZE || sbi->s_inode_size > sb->s_blocksize ||
	    !is_power_of_2(sbi->s_inode_size))
		return SB_BAD(sb, "inode size %u", sbi->s_inode_size);
	if (sbi->s_first_ino < EXT2_GOOD_OLD_FIRST_INO || sbi->s_first_ino > sbi->s_inodes_count)
		return SB_BAD(sb, "first inode %u", sbi->s_first_ino);
	if (sbi->s_first_data_block != (sb->s_blocksize == EXT2_MIN_BLOCK_SIZE ? 1u : 0u))
		return SB_BAD(sb, "first data block %u", sbi->s_first_data_block);
	if (!sbi->s_blocks_per_group || sbi->s_blocks_per_group > bits ||
	    le32_to_cpu(es->s_frags_per_group) != sbi->s_blocks_per_group)
		return SB_BAD(sb, "blocks per group %u", sbi->s_blocks_per_group);
	if (sbi->s_inodes_per_group < sbi->s_inodes_per_block || sbi->s_inodes_per_group > bits)
		return SB_BAD(sb, "inodes per group %u", sbi->s_inodes_per_group);
	if (sbi->s_blocks_count <= sbi->s_first_data_block + 1)
		return SB_BAD(sb, "blocks count %u", sbi->s_blocks_count);
	if (sbi->s_blocks_count > dev_blocks) {
		ext2_msg(sb, KERN_ERR,
			 "error: bad geometry: block count %u exceeds size of device (%llu blocks)",
			 sbi->s_blocks_count, (unsigned long long)dev_blocks);
		return -EINVAL; /* as Linux's: the image is whole, the device too small for it */
	}
	if ((u64)sbi->s_groups_count * sbi->s_inodes_per_group != sbi->s_inodes_count)
		return SB_BAD(sb, "inodes count %u for %u groups of %u", sbi->s_inodes_count,
			      sbi->s_groups_count, sbi->s_inodes_per_group);
	if (le32_to_cpu(es->s_r_blocks_count) > sbi->s_blocks_count)
		return SB_BAD(sb, "reserved blocks count %u", le32_to_cpu(es->s_r_blocks_count));
	return 0;
}

/* The in-memory geometry from the on-disk superblock (checked by ext2_check_geometry). */
static void ext2_init_sbi(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	struct ext2_super_block *es = sbi->s_es;
	bool old = le32_to_cpu(es->s_rev_level) == EXT2_GOOD_OLD_REV;

	sbi->s_inode_size = old ? EXT2_GOOD_OLD_INODE_SIZE : le16_to_cpu(es->s_inode_size);
	sbi->s_first_ino = old ? EXT2_GOOD_OLD_FIRST_INO : le32_to_cpu(es->s_first_ino);
	sbi->s_blocks_per_group = le32_to_cpu(es->s_blocks_per_group);
	sbi->s_inodes_per_group = le32_to_cpu(es->s_inodes_per_group);
	sbi->s_first_data_block = le32_to_cpu(es->s_first_data_block);
	sbi->s_blocks_count = le32_to_cpu(es->s_blocks_count);
	sbi->s_inodes_count = le32_to_cpu(es->s_inodes_count);
	sbi->s_inodes_per_block = sbi->s_inode_size ? (u32)sb->s_blocksize / sbi->s_inode_size : 0;
	sbi->s_itb_per_group = sbi->s_inodes_per_block ? DIV_ROUND_UP(sbi->s_inodes_per_group,
								      sbi->s_inodes_per_block) :
							 0;
	sbi->s_desc_size = ext2_has_incompat(sb, EXT4_FEATURE_INCOMPAT_64BIT) && !old ?
				   le16_to_cpu(es->s_desc_size) :
				   (unsigned int)sizeof(struct ext2_group_desc);
	/* a bad s_desc_size is refused by the family's load_super before any descriptor is read */
	sbi->s_desc_per_block = sbi->s_desc_size >= sizeof(struct ext2_group_desc) &&
						sbi->s_desc_size <= sb->s_blocksize ?
					(unsigned int)(sb->s_blocksize / sbi->s_desc_size) :
					1;
	sbi->s_addr_per_block_bits = (unsigned int)ilog2(ext2_addr_per_block(sb));
	sbi->s_groups_count = sbi->s_blocks_count > sbi->s_first_data_block &&
					      sbi->s_blocks_per_group ?
				      DIV_ROUND_UP(sbi->s_blocks_count - sbi->s_first_data_block,
						   sbi->s_blocks_per_group) :
				      0;
	sbi->s_gdb_count = DIV_ROUND_UP(sbi->s_groups_count, sbi->s_desc_per_block);
	sbi->s_mount_state = le16_to_cpu(es->s_state);
	sbi->s_next_generation = (u32)ktime_get_ns();
}

/* A repaired descriptor reaches the disk only on a read-write mount. */
static void ext2_gd_dirty(struct super_block *sb, unsigned int group)
{
	if (!(sb->s_flags & SB_RDONLY))
		ext2_group_dirty(sb, group, NULL, NULL);
}

/* Free bits in the bitmap at block among the first size, or -EIO. */
static int count_free_in_bitmap(struct super_block *sb, u32 block, u32 size)
{
	struct buffer_head *bh = sb_bread(sb, block);
	int n;

	if (!bh)
		return -EIO;
	n = (int)ext2_count_zero_bits((const u8 *)bh->b_data, size);
	brelse(bh);
	return n;
}

/*
 * A descriptor whose free count is larger than its group is garbage (df would print it):
 * recount it from the group's bitmap and record the error. Smaller errors are e2fsck's.
 */
static int ext2_check_group_counts(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);

	for (unsigned int g = 0; g < sbi->s_groups_count; g++) {
		struct ext2_group_desc *gd = ext2_get_group_desc(sb, g, NULL);
		u32 blocks = ext2_group_last_block(sb, g) - ext2_group_first_block(sb, g) + 1;
		u32 fb = le16_to_cpu(gd->bg_free_blocks_count),
		    fi = le16_to_cpu(gd->bg_free_inodes_count);
		int n;

		if (fb > blocks) {
			n = count_free_in_bitmap(sb, le32_to_cpu(gd->bg_block_bitmap), blocks);
			if (n < 0)
				return n;
			ext2_error(sb, "ext2_check_descriptors",
				   "group %u: free blocks count %u is more than its %u blocks; the "
				   "bitmap says %d",
				   g, fb, blocks, n);
			gd->bg_free_blocks_count = cpu_to_le16((u16)n);
			ext2_gd_dirty(sb, g);
		}
		if (fi > sbi->s_inodes_per_group) {
			n = count_free_in_bitmap(sb, le32_to_cpu(gd->bg_inode_bitmap),
						 sbi->s_inodes_per_group);
			if (n < 0)
				return n;
			ext2_error(sb, "ext2_check_descriptors",
				   "group %u: free inodes count %u is more than its %u inodes; the "
				   "bitmap says %d",
				   g, fi, sbi->s_inodes_per_group, n);
			gd->bg_free_inodes_count = cpu_to_le16((u16)n);
			ext2_gd_dirty(sb, g);
		}
	}
	return 0;
}

static int ext2_load_group_desc(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	int err;

	if (sbi->s_first_data_block + 1 + sbi->s_gdb_count > ext2_group_last_block(sb, 0))
		return SB_BAD(sb, "%u group descriptor blocks do not fit in group 0",
			      sbi->s_gdb_count);
	sbi->s_group_desc = kcalloc(sbi->s_gdb_count, sizeof(*sbi->s_group_desc), GFP_KERNEL);
	if (!sbi->s_group_desc)
		return -ENOMEM;
	for (unsigned int i = 0; i < sbi->s_gdb_count; i++) {
		sbi->s_group_desc[i] = sb_bread(sb, sbi->s_first_data_block + 1 + i);
		if (!sbi->s_group_desc[i]) {
			ext2_msg(sb, KERN_ERR, "error: unable to read group descriptor block %u",
				 sbi->s_first_data_block + 1 + i);
			return -EIO;
		}
	}
	err = ext2_check_descriptors(sb);
	if (!err && sbi->s_family)
		err = sbi->s_family->load_descriptors(sb);
	return err ? err : ext2_check_group_counts(sb);
}

/* The filesystem's free counts, from the descriptors checked (and repaired) above. */
static int ext2_init_counters(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	int err;

	err = percpu_counter_init(&sbi->s_freeblocks_counter, ext2_count_free_blocks(sb), GFP_KERNEL);
	if (!err)
		err = percpu_counter_init(&sbi->s_freeinodes_counter, ext2_count_free_inodes(sb),
					  GFP_KERNEL);
	if (!err)
		err = percpu_counter_init(&sbi->s_dirtyclusters_counter, 0, GFP_KERNEL);
	ext2_unwritten_init(&sbi->s_unwritten);
	return err;
}

static int ext2_load_root(struct super_block *sb)
{
	struct inode *root = ext2_iget(sb, EXT2_ROOT_INO);

	if (IS_ERR(root)) {
		ext2_msg(sb, KERN_ERR, "error: can't read the root inode (%d)", (int)PTR_ERR(root));
		return (int)PTR_ERR(root);
	}
	if (!S_ISDIR(root->i_mode) || !root->i_blocks || !root->i_size) {
		ext2_msg(sb, KERN_ERR,
			 "error: corrupt root inode (mode %o, %llu blocks, size %lld), run e2fsck",
			 root->i_mode, (unsigned long long)root->i_blocks, root->i_size);
		iput(root);
		return -EIO;
	}
	sb->s_root = d_make_root(root);
	return sb->s_root ? 0 : -ENOMEM;
}

/* ext2_fill_super() replayed a journal: the mount starts over on the replayed image. */
#define EXT2_FILL_AGAIN 1

static int ext2_fill_super(struct super_block *sb, int flags, const char *opts,
			   const struct ext2_family_ops *ops)
{
	struct ext2_sb_info *sbi = kzalloc(sizeof(*sbi), GFP_KERNEL);
	unsigned int offset;
	int err;

	if (!sbi)
		return -ENOMEM;
	sbi->s_family = ops;
	ext2_ratelimit_init(sbi);
	mutex_init(&sbi->s_lock);
	for (unsigned int i = 0; i < EXT2_NR_BG_LOCKS; i++)
		spin_lock_init(&sbi->s_blockgroup_lock.locks[i].lock);
	mutex_init(&sbi->s_commit_lock);
	mutex_init(&sbi->s_orphan_lock);
	INIT_LIST_HEAD(&sbi->s_orphans);
	spin_lock_init(&sbi->s_sb_csum_lock);
	sb->s_fs_info = sbi;
	sbi->s_sbh = ext2_read_sb_block(sb, &offset);
	if (IS_ERR(sbi->s_sbh)) {
		err = (int)PTR_ERR(sbi->s_sbh);
		sbi->s_sbh = NULL;
		return err;
	}
	sbi->s_es = (struct ext2_super_block *)(sbi->s_sbh->b_data + offset);
	ext2_init_sbi(sb);
	ext2_default_errors(sb);
	err = ext2_parse_options(sb, opts);
	if (err)
		return err;
	/* errors found from here on are ours; earlier ones on the device are not */
	sbi->s_bdev_wb_err_seen = READ_ONCE(bdev_mapping(sb->s_bdev)->wb_err_count);
	err = ext2_check_geometry(sb);
	if (!err)
		err = ext2_check_features(sb, flags);
	if (err)
		return err;
	sb->s_maxbytes = ext2_max_size(sb->s_blocksize_bits);
	if (ops)
		err = ops->load_super(sb); /* may raise s_maxbytes (extents) */
	if (err)
		return err;
	sb->s_magic = EXT2_SUPER_MAGIC;
	sb->s_op = &ext2_sops;
	sb->s_iflags |= SB_I_CGROUPWB;
	err = ext2_load_group_desc(sb);
	if (!err && ops && ext2_has_incompat(sb, EXT3_FEATURE_INCOMPAT_RECOVER)) {
		if (!sbi->s_noload)
			return ops->recover(sb) ?: EXT2_FILL_AGAIN;
		if (!(sb->s_flags & SB_RDONLY)) { /* as Linux's: noload reads an image as it is */
			ext2_msg(sb, KERN_ERR,
				 "error: required journal recovery suppressed and not mounted "
				 "read-only");
			return -EINVAL;
		}
	}
	if (!err)
		err = ext2_init_counters(sb);
	if (!err)
		err = ext2_rsv_init(sb);
	if (!err)
		err = ext2_pending_frees_init(sb);
	if (!err)
		err = ext2_load_root(sb);
	if (err)
		return err;
	if (!(sb->s_flags & SB_RDONLY))
		return ext2_setup_super(sb);
	return 0;
}

/* Undo a failed fill: nothing was written, only buffers and memory to give back. */
static void ext2_fill_failed(struct super_block *sb)
{
	if (sb->s_root) {
		dput(sb->s_root);
		sb->s_root = NULL;
	}
	ext2_release_sbi(sb);
	sb->s_op = NULL;
	invalidate_bdev(sb->s_bdev);
}

struct super_block *ext2_mount_family(struct file_system_type *fs_type, int flags,
				      const char *dev_name, void *data,
				      const struct ext2_family_ops *ops)
{
	struct super_block *sb;
	int err;

	sb = sget_bdev(fs_type, flags, dev_name);
	if (IS_ERR(sb) || sb->s_root)
		return sb; /* or the device's mounted superblock, shared */
	err = ext2_fill_super(sb, flags, data, ops);
	if (err == EXT2_FILL_AGAIN) {
		/* the journal was replayed: check the image it left from the start */
		ext2_fill_failed(sb);
		err = ext2_fill_super(sb, flags, data, ops);
		if (err == EXT2_FILL_AGAIN)
			err = -EIO; /* needs_recovery again: never loop */
	}
	if (err) {
		ext2_fill_failed(sb);
		deactivate_locked_super(sb);
		return ERR_PTR(err);
	}
	sb->s_flags |= SB_ACTIVE;
	return sb;
}

static struct super_block *ext2_mount(struct file_system_type *fs_type, int flags,
				      const char *dev_name, void *data)
{
	return ext2_mount_family(fs_type, flags, dev_name, data, NULL);
}

static struct file_system_type ext2_fs_type = {
	.name = "ext2",
	.mount = ext2_mount,
	.kill_sb = kill_block_super,
	.requires_dev = true,
};

int ext2_init(void)
{
	return register_filesystem(&ext2_fs_type);
}
