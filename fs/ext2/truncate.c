/*
 * Freeing a file's blocks past a new size (truncate, and deletion with size 0): data
 * blocks and the pointer blocks that no longer map anything, in runs so that a large
 * file goes back to the bitmaps in a few calls.
 *
 * A pointer block that is freed is forgotten in the block device's cache first: a dirty
 * copy written back later would overwrite whatever the block holds by then. The same goes
 * for directory and symlink data blocks, which live in that cache as well.
 */
#include "ext2.h"
#include <cgwb/errno.h>

struct ext2_free_run {
	struct inode *inode;
	u32 start;
	unsigned long count;
};

static void run_flush(struct ext2_free_run *run)
{
	if (run->count)
		ext2_free_blocks(run->inode, run->start, run->count);
	run->count = 0;
}

static void run_add(struct ext2_free_run *run, u32 block)
{
	if (run->count && block == run->start + run->count) {
		run->count++;
		return;
	}
	run_flush(run);
	run->start = block;
	run->count = 1;
}

static void forget_block(struct super_block *sb, u32 block)
{
	struct buffer_head *bh = sb_getblk(sb, block);

	if (!bh)
		return;
	wait_on_buffer(bh);
	ext2_forget_metadata(sb, bh);
}

static void clear_slot(u32 *slot, struct inode *inode, struct buffer_head *slot_bh)
{
	*slot = 0;
	if (slot_bh)
		ext2_dirty_metadata(inode->i_sb, slot_bh);
	else
		mark_inode_dirty(inode);
}

static int free_tree(struct ext2_free_run *run, u32 *slot, struct buffer_head *slot_bh, int depth,
		     u64 from);

/* Free what the pointer block bh maps from its logical block from on (span per slot). */
static int free_children(struct ext2_free_run *run, struct buffer_head *bh, int depth, u64 from)
{
	unsigned int bits = EXT2_SB(run->inode->i_sb)->s_addr_per_block_bits;
	u64 span = 1ULL << (bits * (unsigned int)(depth - 1));
	u32 *slots = (u32 *)bh->b_data;
	int err = 0;

	for (u64 i = from / span; i < (1ULL << bits); i++) {
		u64 child_from = i == from / span ? from % span : 0;
		int e = free_tree(run, &slots[i], bh, depth - 1, child_from);
		if (e && !err)
			err = e;
	}
	return err;
}

/*
 * Free the part of the subtree at *slot that maps logical blocks >= from (relative to the
 * subtree). depth 0: *slot is a data block; depth d: a pointer block d levels above data.
 */
static int free_tree(struct ext2_free_run *run, u32 *slot, struct buffer_head *slot_bh, int depth,
		     u64 from)
{
	struct inode *inode = run->inode;
	struct super_block *sb = inode->i_sb;
	u32 block = *slot;
	const char *problem;
	struct buffer_head *bh;
	int err;

	if (!block)
		return 0;
	problem = ext2_block_pointer_problem(inode, block);
	if (problem) {
		/* never freed: freeing metadata would hand it out again */
		ext2_error(sb, "ext2_truncate_blocks", "inode %lu: %s block %u %s, dropped",
			   inode->i_ino, depth ? "indirect" : "data", block, problem);
		clear_slot(slot, inode, slot_bh);
		return -EIO;
	}
	if (!depth) {
		if (!S_ISREG(inode->i_mode))
			forget_block(sb, block);
		run_add(run, block);
		clear_slot(slot, inode, slot_bh);
		return 0;
	}
	bh = sb_bread(sb, block);
	if (!bh) {
		ext2_error(sb, "ext2_truncate_blocks", "inode %lu: cannot read indirect block %u",
			   inode->i_ino, block);
		return -EIO;
	}
	err = free_children(run, bh, depth, from);
	if (from) {
		ext2_dirty_metadata(inode->i_sb, bh);
		brelse(bh);
		return err;
	}
	wait_on_buffer(bh);
	ext2_forget_metadata(inode->i_sb, bh);
	run_add(run, block);
	clear_slot(slot, inode, slot_bh);
	return err;
}

/* Inodes whose i_data holds block pointers (not a fast symlink's text or a device number). */
static bool ext2_has_block_map(struct inode *inode)
{
	if (S_ISREG(inode->i_mode) || S_ISDIR(inode->i_mode))
		return true;
	return S_ISLNK(inode->i_mode) && !ext2_inode_is_fast_symlink(inode);
}

/* Free every block that maps data at or past byte size. */
int ext2_truncate_blocks(struct inode *inode, loff_t size)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	unsigned int bits = EXT2_SB(inode->i_sb)->s_addr_per_block_bits;
	u64 from = (u64)DIV_ROUND_UP(size, (loff_t)inode->i_sb->s_blocksize);
	struct ext2_free_run run = { .inode = inode };
	u64 base = EXT2_NDIR_BLOCKS;
	int err = 0;

	if (!ext2_has_block_map(inode))
		return 0;
	if (ei->i_flags & EXT4_EXTENTS_FL) {
		/* i_rwsem (or the last reference) serialises truncations of an inode */
		WRITE_ONCE(ei->i_map_gen, ei->i_map_gen + 1);
		return ext2_family(inode->i_sb)->truncate_blocks(inode, size);
	}
	ext2_discard_reservation(inode);
	mutex_lock(&ei->truncate_mutex);
	WRITE_ONCE(ei->i_map_gen, ei->i_map_gen + 1);
	for (u64 i = from; i < EXT2_NDIR_BLOCKS; i++) {
		int e = free_tree(&run, &ei->i_data[i], NULL, 0, 0);
		if (e)
			err = e;
	}
	for (int depth = 1; depth <= 3; depth++) {
		u64 span = 1ULL << (bits * (unsigned int)depth);
		if (from < base + span) {
			int e = free_tree(&run, &ei->i_data[EXT2_NDIR_BLOCKS + depth - 1], NULL,
					  depth, from > base ? from - base : 0);
			if (e)
				err = e;
		}
		base += span;
	}
	run_flush(&run);
	if (ei->i_next_alloc_block >= from) {
		ei->i_next_alloc_block = 0;
		ei->i_next_alloc_goal = 0;
	}
	mutex_unlock(&ei->truncate_mutex);
	mark_inode_dirty(inode);
	return err;
}
