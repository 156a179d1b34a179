/*
 * Extents: a file's blocks as runs (logical start, length, physical start) in a tree whose
 * root is the inode's i_block (a header and up to 4 entries) and whose other nodes are
 * whole blocks, each with a header, eh_max slots and, on metadata_csum images, a checksum
 * after the last slot. Index entries point at the node that covers the logical blocks from
 * theirs to the next one's; leaves hold extents. An extent longer than 32768 is
 * unwritten (allocated, reads as zeros).
 *
 * This file maps: logical block -> physical run, for readers (extents_alloc.c adds to the
 * tree, extents_truncate.c removes from it). Every node is checked when
 * it is read, before anything in it is followed (Linux's __ext4_ext_check): magic, depth
 * as the parent says, counts within the node, the checksum, entries in increasing order
 * and each physical block inside the filesystem and outside its metadata. A bad node
 * gives -EIO and an error naming the inode and what was wrong; nothing from disk can make
 * a lookup loop (the depth strictly decreases) or read outside a node.
 *
 * Callers hold what ext2_get_blocks() asks (truncate_mutex); the root is in memory.
 */
#include "ext4_extents.h"
#include <cgwb/errno.h>

static const char *ext_header_problem(const struct ext4_extent_header *eh, unsigned int space,
				      unsigned int depth)
{
	unsigned int max = le16_to_cpu(eh->eh_max), entries = le16_to_cpu(eh->eh_entries);

	if (le16_to_cpu(eh->eh_magic) != EXT4_EXT_MAGIC)
		return "invalid magic";
	if (le16_to_cpu(eh->eh_depth) != depth)
		return "unexpected eh_depth";
	if (!max || max > ext_space(space))
		return "invalid eh_max";
	if (entries > max || (!entries && depth))
		return "invalid eh_entries";
	return NULL;
}

/* A run of physical blocks a node points at must be data blocks of this filesystem. */
static bool ext_run_valid(struct inode *inode, u32 start, u32 len, u16 hi)
{
	struct super_block *sb = inode->i_sb;
	u64 last = (u64)start + len - 1;

	if (hi || !len || last >= EXT2_SB(sb)->s_blocks_count || !ext2_block_in_range(sb, start))
		return false;
	return !EXT2_SB(sb)->s_system_zone || !ext4_in_system_zone(sb, start, len, inode->i_ino);
}

static const char *ext_leaf_problem(struct inode *inode, const struct ext4_extent_header *eh)
{
	const struct ext4_extent *ex = ext_first(eh);
	u64 next = 0; /* the first logical block the next extent may start at */

	for (unsigned int i = 0; i < le16_to_cpu(eh->eh_entries); i++, ex++) {
		u32 lblk = le32_to_cpu(ex->ee_block), len = ext_len(ex);

		if (lblk < next)
			return "extents overlap or are out of order";
		if (!ext_run_valid(inode, le32_to_cpu(ex->ee_start_lo), len,
				   le16_to_cpu(ex->ee_start_hi)))
			return "invalid extent (physical blocks)";
		next = (u64)lblk + len;
		if (next > 1ULL << 32)
			return "invalid extent (logical blocks)";
	}
	return NULL;
}

static const char *ext_index_problem(struct inode *inode, const struct ext4_extent_header *eh)
{
	const struct ext4_extent_idx *ix = idx_first(eh);

	for (unsigned int i = 0; i < le16_to_cpu(eh->eh_entries); i++, ix++) {
		if (i && le32_to_cpu(ix->ei_block) <= le32_to_cpu(ix[-1].ei_block))
			return "index entries out of order";
		if (!ext_run_valid(inode, le32_to_cpu(ix->ei_leaf_lo), 1, le16_to_cpu(ix->ei_leaf_hi)))
			return "invalid index (physical block)";
	}
	return NULL;
}

static int ext_check(struct inode *inode, const struct ext4_extent_header *eh, unsigned int space,
		     unsigned int depth, u32 pblk)
{
	struct super_block *sb = inode->i_sb;
	const char *why = ext_header_problem(eh, space, depth);

	if (!why && pblk && !ext4_extent_block_csum_verify(inode, eh))
		why = "extent tree block checksum invalid";
	if (!why)
		why = depth ? ext_index_problem(inode, eh) : ext_leaf_problem(inode, eh);
	if (!why)
		return 0;
	ext2_error(sb, "ext4_ext_check", "inode #%lu: extent tree %s %u: %s (depth %u)",
		   inode->i_ino, pblk ? "block" : "root in the inode", pblk, why, depth);
	return -EIO;
}

/* The root in i_block, checked when the inode is read. */
int ext4_ext_check_inode(struct inode *inode)
{
	const struct ext4_extent_header *eh = ext_root(inode);
	unsigned int depth = le16_to_cpu(eh->eh_depth);

	if (depth > EXT4_MAX_EXTENT_DEPTH) {
		ext2_error(inode->i_sb, "ext4_ext_check", "inode #%lu: extent tree depth %u",
			   inode->i_ino, depth);
		return -EIO;
	}
	return ext_check(inode, eh, EXT2_N_BLOCKS * sizeof(__le32), depth, 0);
}

/*
 * The node at pblk, read and checked (its depth must be depth); ERR_PTR on failure. Checked
 * once per read from the disk, as Linux's __read_extent_tree_block() (buffer_verified):
 * writeback maps every page through the tree, and a checksum of the whole block each time
 * made the flusher CPU-bound. What ext4 changes in the node keeps the checksum current.
 */
struct buffer_head *ext4_ext_read_node(struct inode *inode, u32 pblk, unsigned int depth)
{
	struct buffer_head *bh = sb_bread(inode->i_sb, pblk);
	const struct ext4_extent_header *eh;
	int err;

	if (!bh) {
		ext2_error(inode->i_sb, "ext4_ext_map_blocks",
			   "inode #%lu: cannot read extent tree block %u", inode->i_ino, pblk);
		return ERR_PTR(-EIO);
	}
	eh = (const void *)bh->b_data;
	if (buffer_verified(bh) && le16_to_cpu(eh->eh_depth) == depth)
		return bh;
	err = ext_check(inode, eh, (unsigned int)bh->b_size, depth, pblk);
	if (err) {
		brelse(bh);
		return ERR_PTR(err);
	}
	set_buffer_verified(bh);
	return bh;
}

/*
 * How many entries of the node start at or before lblk. Extents and index entries are
 * both 12 bytes with their first logical block first, so one bisection serves both.
 */
unsigned int ext4_ext_bisect(const struct ext4_extent_header *eh, u32 lblk)
{
	const struct ext4_extent *e = ext_first(eh);
	unsigned int lo = 0, hi = le16_to_cpu(eh->eh_entries);

	_Static_assert(sizeof(struct ext4_extent) == sizeof(struct ext4_extent_idx) &&
			       __builtin_offsetof(struct ext4_extent_idx, ei_block) ==
				       __builtin_offsetof(struct ext4_extent, ee_block),
		       "extents and index entries are bisected alike");
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (le32_to_cpu(e[mid].ee_block) <= lblk)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The index entry to follow for lblk: the last one starting at or before it (or the first). */
static const struct ext4_extent_idx *idx_search(const struct ext4_extent_header *eh, u32 lblk)
{
	unsigned int n = ext4_ext_bisect(eh, lblk);

	return &idx_first(eh)[n ? n - 1 : 0];
}

/* The extent holding lblk, or NULL for a hole. */
static const struct ext4_extent *ext_search(const struct ext4_extent_header *eh, u32 lblk)
{
	unsigned int n = ext4_ext_bisect(eh, lblk);
	const struct ext4_extent *ex = &ext_first(eh)[n ? n - 1 : 0];

	if (!n || lblk - le32_to_cpu(ex->ee_block) >= ext_len(ex))
		return NULL;
	return ex;
}

/* A copy of the extent holding lblk: 1, 0 for a hole, or -EIO. */
static int ext_lookup(struct inode *inode, u32 lblk, struct ext4_extent *out)
{
	const struct ext4_extent_header *eh = ext_root(inode);
	unsigned int depth = le16_to_cpu(eh->eh_depth);
	const struct ext4_extent *ex;
	struct buffer_head *bh = NULL;

	while (depth--) {
		struct buffer_head *next = ext4_ext_read_node(
			inode, le32_to_cpu(idx_search(eh, lblk)->ei_leaf_lo), depth);

		brelse(bh);
		if (IS_ERR(next))
			return (int)PTR_ERR(next);
		bh = next;
		eh = (const void *)bh->b_data;
	}
	ex = ext_search(eh, lblk);
	if (ex)
		*out = *ex;
	brelse(bh);
	return ex != NULL;
}

/*
 * Map up to maxblocks blocks from iblock: the number mapped (contiguous on disk, the first
 * in *bno), 0 for a hole or an unwritten extent (both read as zeros), or -EIO.
 */
int ext4_ext_map_blocks(struct inode *inode, sector_t iblock, unsigned long maxblocks, u32 *bno)
{
	struct ext4_extent ex;
	u32 lblk = (u32)iblock, off;
	int ret;

	if (iblock > 0xffffffffULL)
		return 0;
	ret = ext_lookup(inode, lblk, &ex);
	if (ret <= 0 || ext_unwritten(&ex))
		return ret < 0 ? ret : 0;
	off = lblk - le32_to_cpu(ex.ee_block);
	*bno = le32_to_cpu(ex.ee_start_lo) + off;
	return (int)min((unsigned long)(ext_len(&ex) - off), maxblocks);
}

int ext4_ext_map_any(struct inode *inode, u32 lblk, unsigned long maxblocks, u32 *bno, bool *unwritten)
{
	struct ext4_extent ex;
	int ret = ext_lookup(inode, lblk, &ex);
	u32 off;

	if (ret <= 0)
		return ret;
	off = lblk - le32_to_cpu(ex.ee_block);
	*bno = le32_to_cpu(ex.ee_start_lo) + off;
	*unwritten = ext_unwritten(&ex);
	return (int)min((unsigned long)(ext_len(&ex) - off), maxblocks);
}

/* 1 if lblk lies in an unwritten extent, 0 if not, or -EIO. */
int ext4_ext_is_unwritten(struct inode *inode, u32 lblk)
{
	struct ext4_extent ex;
	int ret = ext_lookup(inode, lblk, &ex);

	return ret <= 0 ? ret : ext_unwritten(&ex);
}
