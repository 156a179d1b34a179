/*
 * The block map: logical block of a file -> block on disk, through the 12 direct pointers
 * of the inode and its single, double and triple indirect blocks; allocation of what is
 * missing when a write needs it.
 *
 * One call maps a run: the blocks that follow the first in the same pointer block and are
 * contiguous on disk (lookup), or a run of newly allocated contiguous blocks (create), so
 * that readers and writers can build large bios without a call per block.
 *
 * Every pointer read from disk is checked before it is followed or used: a block number
 * outside the filesystem is corruption, reported with the inode and logical block, -EIO.
 */
#include "ext2.h"
#include <cgwb/errno.h>
#include <cgwb/string.h>

#define EXT2_MAX_DEPTH 4

struct ext2_step {
	u32 *p;                 /* the pointer slot: in i_data or in bh's block */
	u32 key;                /* its value when read */
	struct buffer_head *bh; /* NULL for i_data */
};

/*
 * The path of slot indexes to iblock: depth 1 (direct) to 4 (triple indirect), 0 if the
 * block is past what triple indirection reaches. *left: slots after the last one in the
 * same pointer block, the longest run that can be mapped without another lookup.
 */
static int ext2_block_to_path(struct inode *inode, sector_t iblock, unsigned int offsets[4],
			      unsigned int *left)
{
	unsigned int bits = EXT2_SB(inode->i_sb)->s_addr_per_block_bits;
	u64 ptrs = 1ULL << bits, mask = ptrs - 1;
	u64 b = iblock;

	if (b < EXT2_NDIR_BLOCKS) {
		offsets[0] = (unsigned int)b;
		*left = EXT2_NDIR_BLOCKS - 1 - (unsigned int)b;
		return 1;
	}
	b -= EXT2_NDIR_BLOCKS;
	*left = (unsigned int)(mask - (b & mask));
	if (b < ptrs) {
		offsets[0] = EXT2_IND_BLOCK;
		offsets[1] = (unsigned int)b;
		return 2;
	}
	b -= ptrs;
	if (b < ptrs * ptrs) {
		offsets[0] = EXT2_DIND_BLOCK;
		offsets[1] = (unsigned int)(b >> bits);
		offsets[2] = (unsigned int)(b & mask);
		return 3;
	}
	b -= ptrs * ptrs;
	if (b < ptrs * ptrs * ptrs) {
		offsets[0] = EXT2_TIND_BLOCK;
		offsets[1] = (unsigned int)(b >> (2 * bits));
		offsets[2] = (unsigned int)((b >> bits) & mask);
		offsets[3] = (unsigned int)(b & mask);
		return 4;
	}
	return 0;
}

static int bad_block(struct inode *inode, sector_t iblock, u32 block, int level, const char *problem)
{
	ext2_error(inode->i_sb, "ext2_get_blocks", "inode %lu: %s block %u %s (logical block %llu)",
		   inode->i_ino, level ? "indirect" : "data", block, problem,
		   (unsigned long long)iblock);
	return -EIO;
}

/*
 * Follow the path as far as it is mapped. Returns the number of levels whose slot holds a
 * block (depth: fully mapped), or -EIO. chain[i] is filled for every level reached.
 */
static int ext2_get_branch(struct inode *inode, sector_t iblock, int depth,
			   const unsigned int *offsets, struct ext2_step *chain)
{
	struct super_block *sb = inode->i_sb;
	int level = 0;

	chain[0].p = EXT2_I(inode)->i_data + offsets[0];
	chain[0].key = *chain[0].p;
	chain[0].bh = NULL;
	while (chain[level].key) {
		u32 key = chain[level].key;
		const char *problem = ext2_block_pointer_problem(inode, key);
		if (problem)
			return bad_block(inode, iblock, key, depth - 1 - level, problem);
		if (++level == depth)
			return depth;
		struct buffer_head *bh = sb_bread(sb, key);
		if (!bh) {
			ext2_error(sb, __func__, "inode %lu: cannot read indirect block %u",
				   inode->i_ino, key);
			return -EIO;
		}
		chain[level].bh = bh;
		chain[level].p = (u32 *)bh->b_data + offsets[level];
		chain[level].key = *chain[level].p;
	}
	return level;
}

static void release_chain(struct ext2_step *chain, int n)
{
	for (int i = 0; i < n; i++)
		brelse(chain[i].bh);
}

/* Contiguous mapped blocks after the first, within the same pointer block. */
static unsigned long mapped_run(struct inode *inode, const struct ext2_step *last, unsigned long max)
{
	unsigned long n = 1;

	while (n < max && last->p[n] == last->key + n &&
	       !ext2_block_pointer_problem(inode, last->p[n]))
		n++;
	return n;
}

/*
 * Where a new block should go: right after the previous block of a sequential writer,
 * else near the nearest mapped block before it in the same pointer block, else next to
 * the pointer block itself, else in the inode's group.
 */
static u32 ext2_find_goal(struct inode *inode, sector_t iblock, const struct ext2_step *step)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	u32 *start = step->bh ? (u32 *)step->bh->b_data : ei->i_data;

	if (ei->i_next_alloc_goal && iblock == (sector_t)ei->i_next_alloc_block + 1)
		return ei->i_next_alloc_goal + 1;
	for (u32 *p = step->p; p > start;) {
		if (*--p && !ext2_block_pointer_problem(inode, *p))
			return *p;
	}
	if (step->bh)
		return (u32)step->bh->b_blocknr;
	return ext2_group_first_block(inode->i_sb, ei->i_block_group);
}

struct ext2_alloc {
	u32 ind[EXT2_MAX_DEPTH]; /* new pointer blocks, top down */
	int nind;
	u32 data; /* first new data block */
	unsigned long ndata;
};

static void free_alloc(struct inode *inode, struct ext2_alloc *a)
{
	for (int i = 0; i < a->nind; i++)
		ext2_free_blocks(inode, a->ind[i], 1);
	if (a->ndata)
		ext2_free_blocks(inode, a->data, a->ndata);
}

/* need_ind pointer blocks and 1..want data blocks, the data contiguous. */
static int ext2_alloc_blocks(struct inode *inode, u32 goal, int need_ind, unsigned long want,
			     struct ext2_alloc *a)
{
	memset(a, 0, sizeof(*a));
	while (a->nind < need_ind || !a->ndata) {
		unsigned long count = (unsigned long)(need_ind - a->nind) + want;
		int err;
		u32 b = ext2_new_blocks(inode, goal, &count, &err, 0);

		if (!b) {
			free_alloc(inode, a);
			return err;
		}
		goal = b + (u32)count;
		while (a->nind < need_ind && count) {
			a->ind[a->nind++] = b++;
			count--;
		}
		if (count) {
			a->data = b;
			a->ndata = count;
		}
	}
	return 0;
}

/* A fresh pointer block holding one pointer (to the next level) or a run of them (data). */
static int ext2_init_pointer_block(struct inode *inode, u32 block, unsigned int slot, u32 first,
				   unsigned long n)
{
	struct buffer_head *bh = sb_getblk(inode->i_sb, block);

	if (!bh)
		return -EIO;
	lock_buffer(bh);
	memset(bh->b_data, 0, bh->b_size);
	for (unsigned long i = 0; i < n; i++)
		((u32 *)bh->b_data)[slot + i] = first + (u32)i;
	set_buffer_uptodate(bh);
	unlock_buffer(bh);
	ext2_dirty_metadata(inode->i_sb, bh);
	brelse(bh);
	return 0;
}

/*
 * Build the missing part of the path from level n down, then link it in with one pointer
 * store: until then nothing on the path refers to the new blocks.
 */
static int ext2_splice_branch(struct inode *inode, const unsigned int *offsets,
			      struct ext2_step *chain, int n, struct ext2_alloc *a)
{
	for (int i = 0; i < a->nind; i++) {
		int level = n + 1 + i;
		bool last = i == a->nind - 1;
		int err = ext2_init_pointer_block(inode, a->ind[i], offsets[level],
						  last ? a->data : a->ind[i + 1],
						  last ? a->ndata : 1);
		if (err)
			return err;
	}
	if (a->nind) {
		*chain[n].p = a->ind[0];
	} else {
		for (unsigned long i = 0; i < a->ndata; i++)
			chain[n].p[i] = a->data + (u32)i;
	}
	if (chain[n].bh)
		ext2_dirty_metadata(inode->i_sb, chain[n].bh);
	return 0;
}

/* Free slots from chain[n].p on (the run we may fill), at most max. */
static unsigned long free_slots(const struct ext2_step *step, unsigned long max)
{
	unsigned long n = 0;

	while (n < max && !step->p[n])
		n++;
	return n;
}

static int ext2_alloc_branch(struct inode *inode, sector_t iblock, int depth,
			     const unsigned int *offsets, struct ext2_step *chain, int n,
			     unsigned long max, u32 *bno)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	int need_ind = depth - n - 1;
	unsigned long want = need_ind ? max : free_slots(&chain[n], max);
	struct ext2_alloc a;
	int err = ext2_alloc_blocks(inode, ext2_find_goal(inode, iblock, &chain[n]), need_ind, want,
				    &a);

	if (err)
		return err;
	err = ext2_splice_branch(inode, offsets, chain, n, &a);
	if (err) {
		free_alloc(inode, &a);
		return err;
	}
	ei->i_next_alloc_block = (u32)(iblock + a.ndata - 1);
	ei->i_next_alloc_goal = a.data + (u32)a.ndata - 1;
	mark_inode_dirty(inode);
	*bno = a.data;
	return (int)a.ndata;
}

/*
 * Map up to maxblocks blocks from iblock. Returns the number mapped (> 0) with the first
 * disk block in *bno (*new set if they were just allocated: their contents are garbage),
 * 0 for a hole when not creating, or -errno (-EIO on corrupt pointers, -ENOSPC, -EFBIG).
 */
int ext2_get_blocks(struct inode *inode, sector_t iblock, unsigned long maxblocks, u32 *bno,
		    int flags, bool *new)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	unsigned int offsets[EXT2_MAX_DEPTH], left;
	struct ext2_step chain[EXT2_MAX_DEPTH];
	int depth = ext2_block_to_path(inode, iblock, offsets, &left);
	int n, ret;

	*new = false;
	*bno = 0;
	if (ei->i_flags & EXT4_EXTENTS_FL)
		return ext2_family(inode->i_sb)->get_blocks(inode, iblock, maxblocks, bno, flags, new);
	if (!depth)
		return -EFBIG;
	maxblocks = min(maxblocks, (unsigned long)left + 1);
	memset(chain, 0, sizeof(chain));
	mutex_lock(&ei->truncate_mutex);
	n = ext2_get_branch(inode, iblock, depth, offsets, chain);
	if (n < 0) {
		ret = n;
	} else if (n == depth) {
		*bno = chain[depth - 1].key;
		ret = (int)mapped_run(inode, &chain[depth - 1], maxblocks);
	} else if (!(flags & EXT2_GET_BLOCKS_CREATE)) {
		ret = 0;
	} else {
		ret = ext2_alloc_branch(inode, iblock, depth, offsets, chain, n, maxblocks, bno);
		*new = ret > 0;
	}
	release_chain(chain, depth);
	mutex_unlock(&ei->truncate_mutex);
	return ret;
}

/*
 * The largest file: what triple indirection addresses, and what i_blocks (32 bits of
 * 512-byte units, pointer blocks included) can count.
 */
loff_t ext2_max_size(unsigned int blkbits)
{
	u64 ptrs = 1ULL << (blkbits - 2);
	u64 logical = EXT2_NDIR_BLOCKS + ptrs + ptrs * ptrs + ptrs * ptrs * ptrs;
	u64 meta = 1 + (1 + ptrs) + (1 + ptrs + ptrs * ptrs);
	u64 countable = (0xffffffffULL >> (blkbits - 9)) - meta;

	return (loff_t)(min(logical, countable) << blkbits);
}
