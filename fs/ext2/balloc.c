/*
 * Block allocation through the per-group block bitmaps.
 *
 * Policy: a new block goes as close after the goal as possible, and a request for several
 * blocks takes the run of free blocks that starts there (up to the count asked), so that
 * a file written sequentially lands contiguously on disk and writeback can send it in large
 * bios. A regular file takes its blocks from its reservation window (reserve.c), so files
 * written at the same time do not interleave block by block. If the goal's group is full
 * the search moves on through the other groups. Callers are treated as privileged: the
 * reserved blocks (s_r_blocks_count) are usable too.
 *
 * Locking, as Linux's ext2: a group's bitmap, descriptor and window map change under that
 * group's lock alone (sb_bgl_lock(), a spinlock), so writers allocating in different
 * groups never meet. The bitmap is read before the lock is taken (that may sleep on IO),
 * and the search runs under it: a few microseconds, nothing in it sleeps. A writer whose
 * goal group has no room reads a descriptor's free count without the lock to skip it; the
 * count is looked at again under the lock before anything is taken.
 *
 * Free space: the descriptors' counts are the truth for each group, and the filesystem's
 * total is a per-CPU counter (s_freeblocks_counter) moved by the same amount after the
 * group's lock is let go, as Linux's percpu_counter_sub() after ext2_try_to_allocate_with_rsv().
 * It is set from the descriptors at mount; the superblock's count is its sum when written.
 */
#include "ext2.h"
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/irqflags.h>

struct ext2_group_desc *ext2_get_group_desc(struct super_block *sb, unsigned int group,
					    struct buffer_head **bhp)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	unsigned int block = group / sbi->s_desc_per_block;
	unsigned int offset = group % sbi->s_desc_per_block;

	if (WARN_ON_ONCE(group >= sbi->s_groups_count))
		return NULL;
	if (bhp)
		*bhp = sbi->s_group_desc[block];
	/* ext4's 64bit descriptors are longer; their first 32 bytes are ext2's */
	return (struct ext2_group_desc *)(sbi->s_group_desc[block]->b_data +
					  offset * sbi->s_desc_size);
}

static bool range_in_group(struct super_block *sb, unsigned int group, u32 start, u32 len)
{
	return start >= ext2_group_first_block(sb, group) && len && start + len - 1 >= start &&
	       start + len - 1 <= ext2_group_last_block(sb, group);
}

/*
 * Where a group's metadata may lie: inside the group, or with flex_bg anywhere after the
 * primary descriptors (a flex group's bitmaps and tables are packed into its first group).
 */
static bool range_for_group(struct super_block *sb, unsigned int group, u32 start, u32 len)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);

	if (!ext2_has_incompat(sb, EXT4_FEATURE_INCOMPAT_FLEX_BG))
		return range_in_group(sb, group, start, len);
	return start > sbi->s_first_data_block + sbi->s_gdb_count && len &&
	       start + len - 1 >= start && start + len - 1 < sbi->s_blocks_count;
}

/* Every group's bitmaps and inode table must lie inside the group (checked at mount). */
int ext2_check_descriptors(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);

	for (unsigned int g = 0; g < sbi->s_groups_count; g++) {
		struct ext2_group_desc *gd = ext2_get_group_desc(sb, g, NULL);
		const char *what = NULL;
		u32 where = 0;

		const char *why = sbi->s_family ? sbi->s_family->group_desc_problem(sb, g, gd) : NULL;

		if (why) {
			ext2_msg(sb, KERN_ERR, "error: group descriptor %u: %s", g, why);
			return -EIO;
		}
		if (!range_for_group(sb, g, le32_to_cpu(gd->bg_block_bitmap), 1))
			what = "block bitmap", where = le32_to_cpu(gd->bg_block_bitmap);
		else if (!range_for_group(sb, g, le32_to_cpu(gd->bg_inode_bitmap), 1))
			what = "inode bitmap", where = le32_to_cpu(gd->bg_inode_bitmap);
		else if (!range_for_group(sb, g, le32_to_cpu(gd->bg_inode_table),
					  sbi->s_itb_per_group))
			what = "inode table", where = le32_to_cpu(gd->bg_inode_table);
		if (what) {
			ext2_msg(sb, KERN_ERR,
				 "error: group descriptor %u: %s at block %u is not in the %s", g,
				 what, where,
				 ext2_has_incompat(sb, EXT4_FEATURE_INCOMPAT_FLEX_BG) ? "filesyste"
											"m" :
											"group");
			return -EIO;
		}
	}
	return 0;
}

/* The group's checksums after a change (ext4): under its lock, with the change. */
static void group_csum_set(struct super_block *sb, unsigned int group,
			   struct buffer_head *block_bitmap, struct buffer_head *inode_bitmap)
{
	const struct ext2_family_ops *family = ext2_family(sb);

	if (family)
		family->group_csum_set(sb, group, block_bitmap, inode_bitmap);
}

/*
 * The group's descriptor block and the bitmaps given dirtied (joining the transaction,
 * under the caller's handle): the block allocator does it after the group's lock is let
 * go, as Linux's ext2_new_blocks() marks its buffers, to keep the lock's sections short.
 */
static void group_mark_dirty(struct super_block *sb, unsigned int group,
			     struct buffer_head *block_bitmap, struct buffer_head *inode_bitmap)
{
	struct buffer_head *gdbh;

	ext2_get_group_desc(sb, group, &gdbh);
	if (block_bitmap)
		ext2_dirty_metadata(sb, block_bitmap);
	if (inode_bitmap)
		ext2_dirty_metadata(sb, inode_bitmap);
	ext2_dirty_metadata(sb, gdbh);
}

void ext2_group_dirty(struct super_block *sb, unsigned int group, struct buffer_head *block_bitmap,
		      struct buffer_head *inode_bitmap)
{
	group_csum_set(sb, group, block_bitmap, inode_bitmap);
	group_mark_dirty(sb, group, block_bitmap, inode_bitmap);
}

/* delta blocks into the group's free count, its checksums set: under the group's lock. */
static void group_adjust_blocks(struct super_block *sb, unsigned int group, struct buffer_head *bh,
				int delta)
{
	le16_add_cpu(&ext2_get_group_desc(sb, group, NULL)->bg_free_blocks_count, delta);
	group_csum_set(sb, group, bh, NULL);
}

/* Sum of the groups' free blocks: exact when nothing allocates (mount, tests). */
u32 ext2_count_free_blocks(struct super_block *sb)
{
	u32 n = 0;

	for (unsigned int g = 0; g < EXT2_SB(sb)->s_groups_count; g++)
		n += le16_to_cpu(ext2_get_group_desc(sb, g, NULL)->bg_free_blocks_count);
	return n;
}

static u32 group_size(struct super_block *sb, unsigned int group)
{
	return ext2_group_last_block(sb, group) - ext2_group_first_block(sb, group) + 1;
}

/* The superblock and descriptor copies at the start of a group: blocks never to allocate. */
static bool is_power_of(unsigned int n, unsigned int base)
{
	while (n > 1 && n % base == 0)
		n /= base;
	return n == 1;
}

bool ext2_group_has_super(struct super_block *sb, unsigned int group)
{
	if (group <= 1 || !ext2_has_ro_compat(sb, EXT2_FEATURE_RO_COMPAT_SPARSE_SUPER))
		return true;
	if (!(group & 1))
		return false;
	return is_power_of(group, 3) || is_power_of(group, 5) || is_power_of(group, 7);
}

u32 ext2_group_sb_blocks(struct super_block *sb, unsigned int group)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	u32 reserved = 0;

	if (!ext2_group_has_super(sb, group))
		return 0;
	if (le32_to_cpu(sbi->s_es->s_feature_compat) & EXT2_FEATURE_COMPAT_RESIZE_INO)
		reserved = le16_to_cpu(sbi->s_es->s_reserved_gdt_blocks);
	return 1 + sbi->s_gdb_count + reserved;
}

/*
 * Is [start, start+len) clear of the group's own metadata (superblock copy, GDT, bitmaps,
 * inode table)? With a system zone (flex_bg: any group's metadata may be here) it answers.
 */
static bool outside_system_zone(struct super_block *sb, unsigned int group, u32 start, u32 len)
{
	struct ext2_group_desc *gd = ext2_get_group_desc(sb, group, NULL);
	struct ext2_sb_info *sbi = EXT2_SB(sb);

	if (sbi->s_system_zone)
		return !sbi->s_family->in_system_zone(sb, start, len, 0);
	u32 first = ext2_group_first_block(sb, group);
	u32 end = start + len;
	u32 itable = le32_to_cpu(gd->bg_inode_table);
	u32 bb = le32_to_cpu(gd->bg_block_bitmap), ib = le32_to_cpu(gd->bg_inode_bitmap);

	if (start < first + ext2_group_sb_blocks(sb, group))
		return false;
	if ((bb >= start && bb < end) || (ib >= start && ib < end))
		return false;
	return itable + EXT2_SB(sb)->s_itb_per_group <= start || itable >= end;
}

/*
 * The system zone, as ext4's block_validity: a block pointer read from disk (block maps,
 * extended attribute blocks) must lie inside the filesystem and outside its metadata
 * (superblock and descriptor copies, bitmaps, inode tables), or following it would read
 * garbage as data or, worse, write data over metadata. ext2 keeps a group's metadata inside
 * the group (checked at mount), so one group's layout answers; flex_bg images keep it
 * elsewhere, and a sorted list of runs (fs/ext4/block_validity.c) answers.
 */
const char *ext2_block_pointer_problem(struct inode *inode, u32 block)
{
	struct super_block *sb = inode->i_sb;
	struct ext2_sb_info *sbi = EXT2_SB(sb);

	if (!ext2_block_in_range(sb, block))
		return "out of range";
	if (sbi->s_system_zone)
		return sbi->s_family->in_system_zone(sb, block, 1, inode->i_ino) ? "inside "
										   "filesystem "
										   "metadata" :
										   NULL;
	if (!outside_system_zone(sb, (block - sbi->s_first_data_block) / sbi->s_blocks_per_group,
				 block, 1))
		return "inside filesystem metadata";
	return NULL;
}

/*
 * The group's block bitmap, checked: the bits of the group's own bitmaps and inode table
 * must be set, or the bitmap is garbage and allocating from it would destroy metadata.
 * Once per read from the disk (BH_Verified), as Linux's ext2_valid_block_bitmap() and
 * ext4_validate_block_bitmap(): allocation never clears those bits, and the check scanned
 * the inode table's bits at every allocation, once per page ext2 writes.
 */
static struct buffer_head *read_block_bitmap(struct super_block *sb, unsigned int group)
{
	struct ext2_group_desc *gd = ext2_get_group_desc(sb, group, NULL);
	u32 first = ext2_group_first_block(sb, group);
	u32 block = le32_to_cpu(gd->bg_block_bitmap);
	u32 itable = le32_to_cpu(gd->bg_inode_table);
	struct buffer_head *bh = sb_bread(sb, block);
	const u8 *map;

	if (!bh) {
		ext2_error(sb, __func__,
			   "cannot read block bitmap - block_group = %u, block_bitmap = %u", group,
			   block);
		return NULL;
	}
	map = (const u8 *)bh->b_data;
	if (buffer_verified(bh) || ext2_has_incompat(sb, EXT4_FEATURE_INCOMPAT_FLEX_BG))
		return bh; /* flex_bg: its metadata may be elsewhere; the system zone guards it */
	if (ext2_test_bit(map, block - first) &&
	    ext2_test_bit(map, le32_to_cpu(gd->bg_inode_bitmap) - first) &&
	    ext2_find_next_zero_bit(map, itable - first + EXT2_SB(sb)->s_itb_per_group,
				    itable - first) == itable - first + EXT2_SB(sb)->s_itb_per_group) {
		set_buffer_verified(bh);
		return bh;
	}
	ext2_error(sb, __func__, "invalid block bitmap - block_group = %u, block = %u", group, block);
	brelse(bh);
	return NULL;
}

/*
 * Allocate in one group from bit goal on (then from its start), in its bitmap bh, read by
 * the caller. The group's lock held: nothing here sleeps. Returns the first bit taken and
 * sets *count, or -1. A window of the inode's in another group that this one replaced is
 * left in *stale, for the caller to clear.
 */
static long alloc_in_group(struct super_block *sb, struct inode *inode, unsigned int group,
			   struct buffer_head *bh, u32 goal_bit, bool whole, unsigned long *count,
			   struct ext2_rsv_window *stale)
{
	u32 size = group_size(sb, group);
	long bit;

	if (!le16_to_cpu(ext2_get_group_desc(sb, group, NULL)->bg_free_blocks_count))
		return -1;
	bit = ext2_rsv_alloc(sb, inode, group, (u8 *)bh->b_data, size, goal_bit, whole, count, stale);
	if (bit >= 0)
		group_adjust_blocks(sb, group, bh, -(int)*count);
	return bit;
}

/* Blocks just taken that lie on the group's metadata: the bitmap is wrong. Given back. */
static bool taken_in_system_zone(struct super_block *sb, unsigned int group, struct buffer_head *bh,
				 u32 bit, unsigned long count)
{
	u32 first = ext2_group_first_block(sb, group);
	spinlock_t *lock = sb_bgl_lock(EXT2_SB(sb), group);

	if (outside_system_zone(sb, group, first + bit, (u32)count))
		return false;
	ext2_error(sb, "alloc_in_group",
		   "allocating block in system zone - blocks from %u, length %lu", first + bit,
		   count);
	spin_lock(lock);
	for (unsigned long i = 0; i < count; i++)
		ext2_clear_bit((u8 *)bh->b_data, bit + (u32)i);
	group_adjust_blocks(sb, group, bh, (int)count);
	spin_unlock(lock);
	return true;
}

/*
 * One group's try: its bitmap is read first, without the group's lock (that may sleep on
 * IO); then the search runs under the lock, a spinlock, so the holder is never preempted
 * (a preempted holder would have every writer of the group queue behind it). What needs
 * no lock comes after it is let go, to keep its sections to the bits and the counts: the
 * check against the metadata, the buffers dirtied, the free counter, and the clearing of
 * a window the inode left in another group, under that group's lock (one at a time).
 */
static u32 try_group(struct super_block *sb, struct inode *inode, unsigned int group, u32 goal_bit,
		     bool whole, unsigned long *count, int *errp)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	struct ext2_rsv_window stale = { 0 };
	struct buffer_head *bh;
	long bit;

	if (!le16_to_cpu(ext2_get_group_desc(sb, group, NULL)->bg_free_blocks_count))
		return 0; /* looked at without the lock: alloc_in_group looks again under it */
	bh = read_block_bitmap(sb, group);
	if (!bh) {
		*errp = -EIO;
		return 0;
	}
	spin_lock(sb_bgl_lock(sbi, group));
	bit = alloc_in_group(sb, inode, group, bh, goal_bit, whole, count, &stale);
	spin_unlock(sb_bgl_lock(sbi, group));
	ext2_rsv_clear_window(sb, &stale);
	if (bit >= 0 && taken_in_system_zone(sb, group, bh, (u32)bit, *count)) {
		*errp = -EIO;
		bit = -1;
	}
	if (bit >= 0) {
		group_mark_dirty(sb, group, bh, NULL);
		percpu_counter_sub(&sbi->s_freeblocks_counter, (s64)*count);
	}
	brelse(bh);
	return bit < 0 ? 0 : ext2_group_first_block(sb, group) + (u32)bit;
}

/*
 * ext4: an allocation that no reservation covers (a directory block, a write without
 * delayed allocation) leaves the delayed blocks' reservations and the slack alone, as
 * Linux's ext4_claim_free_clusters(): asked for more than fits, it gets what does, halving.
 * Without it, mkdir took the blocks a delayed write had been promised, and that write's
 * data was lost at writeback.
 */
static int ext2_claim_blocks(struct super_block *sb, unsigned long *count, unsigned int flags)
{
	if (!EXT2_SB(sb)->s_family || (flags & EXT2_ALLOC_RESERVED))
		return 0;
	while (*count && !ext2_has_free_blocks(sb, *count))
		*count >>= 1;
	return *count ? 0 : -ENOSPC;
}

/*
 * Allocate up to *count contiguous blocks, as near after goal as possible; *count becomes
 * the number obtained. Returns the first block, or 0 with *errp (-ENOSPC, -EIO, -EROFS).
 * The inode's i_blocks is charged.
 */
u32 ext2_new_blocks(struct inode *inode, u32 goal, unsigned long *count, int *errp, unsigned int flags)
{
	struct super_block *sb = inode->i_sb;
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	unsigned int group, ngroups = sbi->s_groups_count;
	u32 block = 0, goal_bit;

	*errp = 0;
	if (sb->s_flags & SB_RDONLY) {
		*errp = -EROFS;
		return 0;
	}
	*errp = ext2_claim_blocks(sb, count, flags);
	if (*errp)
		return 0;
	if (!ext2_block_in_range(sb, goal))
		goal = ext2_group_first_block(sb, EXT2_I(inode)->i_block_group);
	group = (goal - sbi->s_first_data_block) / sbi->s_blocks_per_group;
	goal_bit = (goal - sbi->s_first_data_block) % sbi->s_blocks_per_group;
	/*
	 * A file with a reservation window first looks for a group with room for a whole
	 * one, then for any free block; for others both passes would be the same search.
	 */
	unsigned int tries = ext2_rsv_wanted(inode) ? 2 * ngroups : ngroups;

	for (unsigned int i = 0; i < tries && !block && !*errp; i++) {
		unsigned long n = *count;
		block = try_group(sb, inode, (group + i) % ngroups, i % ngroups ? 0 : goal_bit,
				  i < ngroups, &n, errp);
		if (block)
			*count = n;
	}
	if (!block) {
		if (!*errp)
			*errp = -ENOSPC;
		return 0;
	}
	inode->i_blocks += (u64)*count << (sb->s_blocksize_bits - 9);
	mark_inode_dirty(inode);
	return block;
}

/*
 * With a journal, a freed block stays allocated on disk and in the bitmap until the
 * transaction that frees it commits, as Linux's ext4_mb_free_metadata() keeps it busy:
 * reused at once, it could be overwritten by new data while a crash would bring back the
 * file that owned it (its unlink not committed). The freeing marks it in the group's
 * pending map (allocated on first use); the commit clears it in the bitmap, the
 * descriptor and the free counter (ext2_commit_pending_frees()), within the transaction
 * that frees it: every handle is closed then and none starts before the commit is over,
 * so nothing can take the block before that transaction is on disk. Until then statfs
 * counts it used.
 */
static u8 *pending_map(struct super_block *sb, unsigned int group)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	u8 *map = READ_ONCE(sbi->s_pending_free[group]), *spare;

	if (map)
		return map;
	spare = kzalloc(sb->s_blocksize, GFP_NOFS | __GFP_NOFAIL);
	spin_lock(sb_bgl_lock(sbi, group));
	map = sbi->s_pending_free[group];
	if (!map)
		WRITE_ONCE(sbi->s_pending_free[group], map = spare);
	spin_unlock(sb_bgl_lock(sbi, group));
	if (map != spare)
		kfree(spare);
	return map;
}

/*
 * Clear count bits from block in one group, under the group's lock (the bitmap read before
 * it); returns how many were actually set, and the free counter has them back. With a
 * journal they are only marked pending (above).
 */
static unsigned long free_in_group(struct super_block *sb, unsigned int group, u32 block,
				   unsigned long count)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	spinlock_t *lock = sb_bgl_lock(sbi, group);
	u8 *pending = sbi->s_journal ? pending_map(sb, group) : NULL;
	struct buffer_head *bh;
	u32 bit = block - ext2_group_first_block(sb, group);
	unsigned long freed = 0;

	if (!outside_system_zone(sb, group, block, (u32)count)) {
		ext2_error(sb, __func__, "freeing blocks in system zone - block = %u, count = %lu",
			   block, count);
		return 0;
	}
	bh = read_block_bitmap(sb, group);
	if (!bh)
		return 0;
	spin_lock(lock);
	for (unsigned long i = 0; i < count; i++) {
		u32 b = bit + (u32)i;

		if (!ext2_test_bit((u8 *)bh->b_data, b) || (pending && ext2_test_bit(pending, b))) {
			ext2_error(sb, __func__, "bit already cleared for block %lu", block + i);
			continue;
		}
		ext2_set_bit(pending ? pending : (u8 *)bh->b_data, b);
		if (!pending)
			ext2_clear_bit((u8 *)bh->b_data, b);
		freed++;
	}
	if (!pending)
		group_adjust_blocks(sb, group, bh, (int)freed);
	spin_unlock(lock);
	if (pending) {
		__atomic_add_fetch(&sbi->s_pending_free_count, freed, __ATOMIC_RELAXED);
	} else {
		group_mark_dirty(sb, group, bh, NULL);
		percpu_counter_add(&sbi->s_freeblocks_counter, (s64)freed);
	}
	brelse(bh);
	return freed;
}

/* One group's pending frees into its bitmap and descriptor (the commit, no handle open). */
static void commit_pending_in_group(struct super_block *sb, unsigned int group, u8 *pending)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	u32 size = group_size(sb, group), n = 0;
	struct buffer_head *bh = read_block_bitmap(sb, group);

	if (!bh)
		return; /* the blocks stay allocated: e2fsck will give them back */
	spin_lock(sb_bgl_lock(sbi, group));
	for (u32 b = ext2_find_next_set_bit(pending, size, 0); b < size;
	     b = ext2_find_next_set_bit(pending, size, b + 1)) {
		ext2_clear_bit((u8 *)bh->b_data, b);
		n++;
	}
	memset(pending, 0, sb->s_blocksize);
	group_adjust_blocks(sb, group, bh, (int)n);
	spin_unlock(sb_bgl_lock(sbi, group));
	group_mark_dirty(sb, group, bh, NULL);
	percpu_counter_add(&sbi->s_freeblocks_counter, (s64)n);
	__atomic_sub_fetch(&sbi->s_pending_free_count, n, __ATOMIC_RELAXED);
	brelse(bh);
}

int ext2_pending_frees_init(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);

	sbi->s_pending_free = kcalloc(sbi->s_groups_count, sizeof(u8 *), GFP_KERNEL);
	return sbi->s_pending_free ? 0 : -ENOMEM;
}

void ext2_pending_frees_destroy(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);

	for (unsigned int g = 0; sbi->s_pending_free && g < sbi->s_groups_count; g++)
		kfree(sbi->s_pending_free[g]);
	kfree(sbi->s_pending_free);
	sbi->s_pending_free = NULL;
}

void ext2_commit_pending_frees(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);

	if (!__atomic_load_n(&sbi->s_pending_free_count, __ATOMIC_RELAXED))
		return;
	for (unsigned int g = 0; g < sbi->s_groups_count; g++)
		if (sbi->s_pending_free[g])
			commit_pending_in_group(sb, g, sbi->s_pending_free[g]);
}

/* Free [block, block + count), which may span groups; the inode's i_blocks is credited. */
void ext2_free_blocks(struct inode *inode, u32 block, unsigned long count)
{
	struct super_block *sb = inode->i_sb;
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	unsigned long freed = 0;

	if (!ext2_block_in_range(sb, block) || count > sbi->s_blocks_count - block) {
		ext2_error(sb, __func__,
			   "freeing blocks not in datazone - block = %u, count = %lu (inode %lu)",
			   block, count, inode->i_ino);
		return;
	}
	while (count) {
		unsigned int group = (block - sbi->s_first_data_block) / sbi->s_blocks_per_group;
		u32 last = ext2_group_last_block(sb, group);
		unsigned long n = min(count, (unsigned long)(last - block + 1));

		freed += free_in_group(sb, group, block, n);
		block += (u32)n;
		count -= n;
	}
	inode->i_blocks -= min(inode->i_blocks, (u64)freed << (sb->s_blocksize_bits - 9));
	mark_inode_dirty(inode);
}
