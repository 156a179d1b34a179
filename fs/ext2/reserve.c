/*
 * Block reservation windows, as Linux's ext2 (fs/ext2/balloc.c, "reservation windows").
 *
 * Policy: a regular file that allocates gets a window of free blocks near its goal,
 * reserved in memory only; its next allocations come from the window, and other files'
 * allocations keep out of it. Writers that dirty several files at once (16 or 256 cgroups
 * each writing its own file, with a fair scheduler switching between them every
 * millisecond) then still lay each file out in long runs, and writeback sends large bios:
 * without windows the files interleaved in runs of about 50 blocks. A window starts at
 * EXT2_DEFAULT_RESERVE_BLOCKS and doubles, up to EXT2_MAX_RESERVE_BLOCKS, each time the
 * file uses one up (it is being written sequentially). It ends when used up, when the
 * file allocates elsewhere, is truncated, closed by a writer, or evicted.
 *
 * Nothing reaches the disk: the windows are one bitmap per group beside the on-disk one,
 * so a crash leaves no trace for e2fsck. When every free block of a group is inside some
 * window, an allocation takes a reserved block anyway (ENOSPC only when the disk is full).
 *
 * Locking: a group's map is under that group's lock (sb_bgl_lock(), balloc.c), as its
 * bitmap is; an inode's window (i_rsv_*) under its truncate_mutex, which every allocation
 * for the inode holds. Linux keeps the windows in one tree under s_rsv_window_lock; maps of
 * one group each need no lock beyond the group's, and nothing here sleeps. The one case
 * that touches two groups, a new window replacing the inode's window in another group, is
 * done in two steps: the old window is forgotten under the new group's lock, and its bits
 * cleared after, under its own (ext2_rsv_clear_window()). Until then they stay reserved for
 * nobody: other files keep out of them a moment longer, which costs nothing but placement.
 */
#include "ext2.h"
#include <cgwb/slab.h>
#include <cgwb/errno.h>

#define EXT2_DEFAULT_RESERVE_BLOCKS 8
#define EXT2_MAX_RESERVE_BLOCKS 1024
#define EXT2_STREAM_REQUEST_BLOCKS 16 /* ext4's s_mb_stream_request */

/*
 * Small files of delayed allocation take no window: as ext4's mballoc
 * (ext4_mb_group_or_file()), only a file larger than s_mb_stream_request blocks streams
 * into space of its own; smaller ones take blocks at the goal or from the locality
 * group's shared space, so that files written one after another lie side by side. With a
 * window each, 500 files of 4 KiB lay one block in 8 and their writeback could not merge
 * into large requests. At writeback i_size covers what is being allocated; without
 * delayed allocation (ext2, nodelalloc) blocks come as the file grows from nothing, so
 * every regular file has a window.
 */
bool ext2_rsv_wanted(struct inode *inode)
{
	if (!S_ISREG(inode->i_mode))
		return false;
	if (!ext2_inode_delalloc(inode))
		return true;
	return READ_ONCE(inode->i_size) > ((loff_t)EXT2_STREAM_REQUEST_BLOCKS << inode->i_blkbits);
}

int ext2_rsv_init(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);

	sbi->s_rsv_map = kcalloc(sbi->s_groups_count, sizeof(*sbi->s_rsv_map), GFP_KERNEL);
	if (!sbi->s_rsv_map)
		return -ENOMEM;
	for (unsigned int g = 0; g < sbi->s_groups_count; g++) {
		sbi->s_rsv_map[g] = kzalloc(sb->s_blocksize, GFP_KERNEL);
		if (!sbi->s_rsv_map[g]) {
			ext2_rsv_destroy(sb);
			return -ENOMEM;
		}
	}
	return 0;
}

void ext2_rsv_destroy(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);

	if (!sbi->s_rsv_map)
		return;
	for (unsigned int g = 0; g < sbi->s_groups_count; g++)
		kfree(sbi->s_rsv_map[g]);
	kfree(sbi->s_rsv_map);
	sbi->s_rsv_map = NULL;
}

/* The first bit at or after start free on disk and, with rsv, outside every window. */
static u32 next_free(const u8 *map, const u8 *rsv, u32 size, u32 start)
{
	u32 bit = start;

	while ((bit = ext2_find_next_zero_bit(map, size, bit)) < size) {
		if (!rsv || !ext2_test_bit(rsv, bit))
			return bit;
		bit = ext2_find_next_zero_bit(rsv, size, bit);
	}
	return size;
}

/* How many blocks from bit on are free and unreserved, up to max. */
static u32 free_run(const u8 *map, const u8 *rsv, u32 size, u32 bit, u32 max)
{
	u32 n = 0;

	while (n < max && bit + n < size && !ext2_test_bit(map, bit + n) &&
	       !ext2_test_bit(rsv, bit + n))
		n++;
	return n;
}

/* Set on disk up to *count free blocks from bit on, below end; clear their reservations. */
static void take(u8 *map, u8 *rsv, u32 end, u32 bit, unsigned long *count)
{
	unsigned long n = 0;

	while (n < *count && bit + n < end && !ext2_test_bit(map, bit + (u32)n)) {
		ext2_set_bit(map, bit + (u32)n);
		ext2_clear_bit(rsv, bit + (u32)n);
		n++;
	}
	*count = n;
}

static void clear_window(struct super_block *sb, const struct ext2_rsv_window *w)
{
	u8 *rsv = EXT2_SB(sb)->s_rsv_map[w->group];

	for (u32 bit = w->start; bit < w->end; bit++)
		ext2_clear_bit(rsv, bit);
}

/* The window's group's lock held, if it has one. */
static void discard_window(struct super_block *sb, struct ext2_inode_info *ei)
{
	struct ext2_rsv_window w = { ei->i_rsv_group, ei->i_rsv_start, ei->i_rsv_end };

	if (w.start != w.end) {
		lockdep_assert_held(sb_bgl_lock(EXT2_SB(sb), w.group));
		clear_window(sb, &w);
	}
	ei->i_rsv_start = ei->i_rsv_end = 0;
}

void ext2_rsv_clear_window(struct super_block *sb, const struct ext2_rsv_window *w)
{
	spinlock_t *lock;

	if (w->start == w->end)
		return;
	lock = sb_bgl_lock(EXT2_SB(sb), w->group);
	spin_lock(lock);
	clear_window(sb, w);
	spin_unlock(lock);
}

void ext2_discard_reservation(struct inode *inode)
{
	struct ext2_sb_info *sbi = EXT2_SB(inode->i_sb);
	struct ext2_inode_info *ei = EXT2_I(inode);
	spinlock_t *lock;

	if (!sbi->s_rsv_map || READ_ONCE(ei->i_rsv_start) == READ_ONCE(ei->i_rsv_end))
		return;
	mutex_lock(&ei->truncate_mutex); /* against the inode's allocations (the opening) */
	if (ei->i_rsv_start != ei->i_rsv_end) {
		lock = sb_bgl_lock(sbi, ei->i_rsv_group);
		spin_lock(lock);
		discard_window(inode->i_sb, ei);
		spin_unlock(lock);
	}
	mutex_unlock(&ei->truncate_mutex);
}

/* From the inode's window in this group, at or after goal_bit: the first bit, or -1. */
static long alloc_from_window(struct super_block *sb, struct ext2_inode_info *ei,
			      unsigned int group, u8 *map, u32 goal_bit, unsigned long *count)
{
	u8 *rsv = EXT2_SB(sb)->s_rsv_map[group];
	u32 bit;

	if (ei->i_rsv_start == ei->i_rsv_end || ei->i_rsv_group != group)
		return -1;
	bit = ext2_find_next_zero_bit(map, ei->i_rsv_end, max(goal_bit, ei->i_rsv_start));
	if (bit >= ei->i_rsv_end) {
		discard_window(sb, ei); /* taken by others while the disk filled up */
		return -1;
	}
	take(map, rsv, ei->i_rsv_end, bit, count);
	if (bit + *count == ei->i_rsv_end) {
		/* used up: the file is sequential, the next window is larger */
		discard_window(sb, ei);
		ei->i_rsv_size = min(ei->i_rsv_size * 2, (u32)EXT2_MAX_RESERVE_BLOCKS);
	} else {
		ei->i_rsv_start = bit + (u32)*count;
	}
	return bit;
}

/*
 * The first gap of want free, unreserved blocks from start on (as Linux's
 * find_next_reservable_window); failing that the longest one seen. *len gets its length.
 */
static u32 find_gap(const u8 *map, const u8 *rsv, u32 size, u32 start, u32 want, u32 *len)
{
	u32 best = size, best_len = 0;

	for (u32 bit = next_free(map, rsv, size, start); bit < size;
	     bit = next_free(map, rsv, size, bit)) {
		u32 n = free_run(map, rsv, size, bit, want);

		if (n == want) {
			*len = n;
			return bit;
		}
		if (n > best_len) {
			best = bit;
			best_len = n;
		}
		bit += n;
	}
	*len = best_len;
	return best;
}

/*
 * A new window for the inode in this group, from goal_bit on (then from the start). With
 * whole, only a gap of the window's full size will do: the first pass over the groups
 * looks for one before a later pass settles for less. An old window in another group goes
 * to *stale (its lock is not ours to take here: the opening).
 */
static bool new_window(struct super_block *sb, struct ext2_inode_info *ei, unsigned int group,
		       const u8 *map, u32 size, u32 goal_bit, bool whole,
		       struct ext2_rsv_window *stale)
{
	u8 *rsv = EXT2_SB(sb)->s_rsv_map[group];
	u32 bit, n;

	if (!ei->i_rsv_size)
		ei->i_rsv_size = EXT2_DEFAULT_RESERVE_BLOCKS;
	bit = find_gap(map, rsv, size, goal_bit < size ? goal_bit : 0, ei->i_rsv_size, &n);
	if (n < ei->i_rsv_size && goal_bit) {
		u32 n0, bit0 = find_gap(map, rsv, size, 0, ei->i_rsv_size, &n0);

		if (n0 > n) {
			bit = bit0;
			n = n0;
		}
	}
	if (!n || (whole && n < ei->i_rsv_size))
		return false;
	if (ei->i_rsv_start != ei->i_rsv_end && ei->i_rsv_group != group)
		*stale = (struct ext2_rsv_window){ ei->i_rsv_group, ei->i_rsv_start, ei->i_rsv_end };
	else
		discard_window(sb, ei);
	for (u32 i = 0; i < n; i++)
		ext2_set_bit(rsv, bit + i);
	ei->i_rsv_group = group;
	ei->i_rsv_start = bit;
	ei->i_rsv_end = bit + n;
	return true;
}

/*
 * Choose and set on disk up to *count blocks in one group's bitmap map (size bits), near
 * goal_bit: from the inode's window if it takes one (ext2_rsv_wanted(); with whole, only
 * a window of full size), else outside the windows, else anywhere. *count becomes the number taken;
 * returns the first bit, or -1 if nothing was taken. The group's lock and the inode's
 * truncate_mutex held; a window the inode leaves in another group goes to *stale.
 */
long ext2_rsv_alloc(struct super_block *sb, struct inode *inode, unsigned int group, u8 *map,
		    u32 size, u32 goal_bit, bool whole, unsigned long *count,
		    struct ext2_rsv_window *stale)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	u8 *rsv = EXT2_SB(sb)->s_rsv_map[group];
	unsigned long want = *count;
	long bit;
	u32 b;

	if (ext2_rsv_wanted(inode)) {
		bit = alloc_from_window(sb, ei, group, map, goal_bit, count);
		if (bit >= 0)
			return bit;
		*count = want;
		if (new_window(sb, ei, group, map, size, goal_bit, whole, stale))
			return alloc_from_window(sb, ei, group, map, ei->i_rsv_start, count);
		if (whole)
			return -1; /* no room for a whole window here: try the other groups first */
	}
	b = next_free(map, rsv, size, goal_bit < size ? goal_bit : 0);
	if (b >= size)
		b = next_free(map, rsv, size, 0);
	if (b < size) {
		*count = free_run(map, rsv, size, b, (u32)min(want, (unsigned long)size));
	} else {
		b = next_free(map, NULL, size, 0); /* every free block is in a window: take one */
		if (b >= size)
			return -1;
	}
	take(map, rsv, size, b, count);
	return b;
}
