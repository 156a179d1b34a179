/*
 * Growing the extent tree: blocks allocated for a hole become an extent, merged into the
 * one before it when they follow it on disk (a file written in order stays one extent per
 * 32768 blocks), inserted in order otherwise.
 *
 * A full node makes room the way Linux's ext4_ext_create_new_leaf() does, one step at a
 * time and then the lookup starts over: the deepest full node whose parent has room is
 * split in two at the insertion point (the entries after it move to a new block, whose
 * first key goes into the parent), so that a file written in order leaves full nodes
 * behind it (an append moves nothing: the new leaf starts with the new extent); when
 * every node up to the root is full, the root's entries move to a new block and the root
 * becomes an index of one entry (the tree grows one level). Every index key
 * equals the first key of the node it points at (e2fsck checks it), so an extent inserted
 * first in the first leaf lowers the keys above it.
 *
 * Callers hold truncate_mutex: one writer of the tree per inode. Nodes are metadata
 * buffers; each change sets the node's checksum before it is marked dirty.
 */
#include "ext4_extents.h"
#include <cgwb/errno.h>
#include <cgwb/string.h>

void ext_path_release(struct ext4_ext_path *path, unsigned int depth)
{
	for (unsigned int i = 0; i <= depth; i++)
		brelse(path[i].bh);
}

/* The path from the root to the leaf that covers (or would cover) lblk: its depth, or -errno. */
int ext4_find_extent(struct inode *inode, u32 lblk, struct ext4_ext_path *path)
{
	struct ext4_extent_header *eh = ext_root(inode);
	unsigned int depth = le16_to_cpu(eh->eh_depth);

	memset(path, 0, sizeof(*path) * (depth + 1));
	path[0].hdr = eh;
	for (unsigned int level = 0; level < depth; level++) {
		unsigned int n = ext4_ext_bisect(path[level].hdr, lblk);
		u32 child;
		struct buffer_head *bh;

		path[level].pos = n ? n - 1 : 0;
		child = le32_to_cpu(idx_first(path[level].hdr)[path[level].pos].ei_leaf_lo);
		bh = ext4_ext_read_node(inode, child, depth - level - 1);
		if (IS_ERR(bh)) {
			ext_path_release(path, level);
			return (int)PTR_ERR(bh);
		}
		path[level + 1] =
			(struct ext4_ext_path){ .hdr = (void *)bh->b_data, .bh = bh, .pblk = child };
	}
	return (int)depth;
}

/* A node changed: its checksum and a dirty buffer, or a dirty inode for the root. */
void ext_node_dirty(struct inode *inode, struct ext4_ext_path *p)
{
	if (!p->bh) {
		mark_inode_dirty(inode);
		return;
	}
	ext4_extent_block_csum_set(inode, p->hdr);
	ext2_dirty_metadata(inode->i_sb, p->bh);
}

static bool ext_node_full(const struct ext4_extent_header *eh)
{
	return le16_to_cpu(eh->eh_entries) >= le16_to_cpu(eh->eh_max);
}

/* Put a 12-byte entry (extent or index) at slot n of a node with room, the rest moved up. */
static void ext_node_insert(struct ext4_extent_header *eh, unsigned int n, const void *entry)
{
	struct ext4_extent *e = ext_first(eh);
	unsigned int entries = le16_to_cpu(eh->eh_entries);

	BUG_ON(entries >= le16_to_cpu(eh->eh_max) || n > entries);
	memmove(&e[n + 1], &e[n], (entries - n) * sizeof(*e));
	memcpy(&e[n], entry, sizeof(*e));
	eh->eh_entries = cpu_to_le16((u16)(entries + 1));
}

/* A new tree block, zeroed and uptodate in the device's cache, near goal. */
static struct buffer_head *ext_new_node(struct inode *inode, u32 goal, u32 *pblk, int *errp)
{
	unsigned long one = 1;
	struct buffer_head *bh;

	/* a tree block may use the slack: writeback and conversion must not fail for it */
	*pblk = ext2_new_blocks(inode, goal, &one, errp, EXT2_ALLOC_RESERVED);
	if (!*pblk)
		return NULL;
	bh = sb_getblk(inode->i_sb, *pblk);
	if (!bh) {
		ext2_free_blocks(inode, *pblk, 1);
		*errp = -EIO;
		return NULL;
	}
	lock_buffer(bh);
	memset(bh->b_data, 0, bh->b_size);
	set_buffer_uptodate(bh);
	unlock_buffer(bh);
	return bh;
}

static void ext_node_init(struct inode *inode, struct ext4_extent_header *eh, unsigned int depth)
{
	eh->eh_magic = cpu_to_le16(EXT4_EXT_MAGIC);
	eh->eh_entries = 0;
	eh->eh_max = cpu_to_le16((u16)ext_space((unsigned int)inode->i_sb->s_blocksize));
	eh->eh_depth = cpu_to_le16((u16)depth);
	eh->eh_generation = 0;
}

/* Every node up to the root is full: the root's entries move down into a new block. */
static int ext4_ext_grow_indepth(struct inode *inode)
{
	struct ext4_extent_header *root = ext_root(inode), *eh;
	unsigned int depth = le16_to_cpu(root->eh_depth), n = le16_to_cpu(root->eh_entries);
	struct ext4_extent_idx ix = { 0 };
	struct buffer_head *bh;
	u32 pblk;
	int err = 0;

	if (depth >= EXT4_MAX_EXTENT_DEPTH)
		return -EFBIG;
	bh = ext_new_node(inode, 0, &pblk, &err);
	if (!bh)
		return err;
	eh = (void *)bh->b_data;
	ext_node_init(inode, eh, depth);
	memcpy(ext_first(eh), ext_first(root), n * sizeof(struct ext4_extent));
	eh->eh_entries = cpu_to_le16((u16)n);
	ext4_extent_block_csum_set(inode, eh);
	ext2_dirty_metadata(inode->i_sb, bh);
	brelse(bh);
	ix.ei_block = cpu_to_le32(n ? ext_key(root, 0) : 0);
	ix.ei_leaf_lo = cpu_to_le32(pblk);
	root->eh_depth = cpu_to_le16((u16)(depth + 1));
	root->eh_entries = 0;
	ext_node_insert(root, 0, &ix);
	mark_inode_dirty(inode);
	return 0;
}

/*
 * Where a full node splits for lblk: a leaf keeps the extents before lblk's place (at
 * least one; an append keeps them all and the new leaf waits for lblk's extent), an index
 * node the entries up to the one followed (and gives the new node at least one).
 */
static unsigned int ext_split_at(struct ext4_ext_path *path, unsigned int level, unsigned int depth,
				 u32 lblk)
{
	unsigned int n = le16_to_cpu(path[level].hdr->eh_entries);

	if (level == depth)
		return clamp(ext4_ext_bisect(path[level].hdr, lblk), 1u, n);
	return clamp(path[level].pos + 1, 1u, n - 1);
}

/*
 * The node at path[level] is full and its parent is not: its entries from keep on move
 * into a new block, which the parent then points at, right after the node (with lblk as
 * its key if it starts empty).
 */
static int ext4_ext_split(struct inode *inode, struct ext4_ext_path *path, unsigned int level,
			  unsigned int keep, u32 lblk)
{
	struct ext4_extent_header *eh = path[level].hdr, *neh;
	unsigned int n = le16_to_cpu(eh->eh_entries);
	struct ext4_extent_idx ix = { 0 };
	struct buffer_head *bh;
	u32 pblk;
	int err = 0;

	BUG_ON(!level || n < 2 || keep > n || !keep || ext_node_full(path[level - 1].hdr));
	bh = ext_new_node(inode, path[level].pblk, &pblk, &err);
	if (!bh)
		return err;
	neh = (void *)bh->b_data;
	ext_node_init(inode, neh, le16_to_cpu(eh->eh_depth));
	memcpy(ext_first(neh), &ext_first(eh)[keep], (n - keep) * sizeof(struct ext4_extent));
	neh->eh_entries = cpu_to_le16((u16)(n - keep));
	ext4_extent_block_csum_set(inode, neh);
	ext2_dirty_metadata(inode->i_sb, bh);
	brelse(bh);
	eh->eh_entries = cpu_to_le16((u16)keep);
	ext_node_dirty(inode, &path[level]);
	ix.ei_block = cpu_to_le32(keep < n ? ext_key(neh, 0) : lblk);
	ix.ei_leaf_lo = cpu_to_le32(pblk);
	ext_node_insert(path[level - 1].hdr, path[level - 1].pos + 1, &ix);
	ext_node_dirty(inode, &path[level - 1]);
	return 0;
}

/* One step towards a leaf with room for lblk's extent (the file's comment). */
static int ext_make_room(struct inode *inode, struct ext4_ext_path *path, unsigned int depth, u32 lblk)
{
	unsigned int level = depth;

	while (level && ext_node_full(path[level - 1].hdr))
		level--;
	if (!level)
		return ext4_ext_grow_indepth(inode);
	return ext4_ext_split(inode, path, level, ext_split_at(path, level, depth, lblk), lblk);
}

/* Keys above a leaf whose first extent now starts at lblk follow it down. */
static void ext_correct_indexes(struct inode *inode, struct ext4_ext_path *path, unsigned int depth,
				u32 lblk)
{
	for (unsigned int level = depth; level-- > 0;) {
		struct ext4_extent_idx *ix = &idx_first(path[level].hdr)[path[level].pos];

		if (le32_to_cpu(ix->ei_block) <= lblk)
			break;
		ix->ei_block = cpu_to_le32(lblk);
		ext_node_dirty(inode, &path[level]);
	}
}

/*
 * Extend the extent before slot n if [lblk, +len) at pblk continues it, in the file, on
 * disk and in state (written or not: a merge must never make data appear or vanish).
 */
static bool ext_try_merge(struct ext4_extent_header *eh, unsigned int n, u32 lblk, u32 pblk,
			  u32 len, bool unwritten)
{
	struct ext4_extent *prev = n ? &ext_first(eh)[n - 1] : NULL;

	if (!prev || ext_unwritten(prev) != unwritten || le16_to_cpu(prev->ee_start_hi))
		return false;
	if (le32_to_cpu(prev->ee_block) + ext_len(prev) != lblk ||
	    le32_to_cpu(prev->ee_start_lo) + ext_len(prev) != pblk ||
	    ext_len(prev) + len > ext_max_len(unwritten))
		return false;
	ext_set_len(prev, ext_len(prev) + len, unwritten);
	return true;
}

/* Record [lblk, lblk + len) -> pblk, a hole until now, in the tree (unwritten or not). */
int ext4_ext_insert_extent(struct inode *inode, u32 lblk, u32 pblk, u32 len, bool unwritten)
{
	struct ext4_ext_path path[EXT4_MAX_EXTENT_DEPTH + 1];
	struct ext4_extent ex = { .ee_block = cpu_to_le32(lblk), .ee_start_lo = cpu_to_le32(pblk) };

	BUG_ON(!len || len > ext_max_len(unwritten));
	ext_set_len(&ex, len, unwritten);

	for (;;) {
		int depth = ext4_find_extent(inode, lblk, path), err = 0;
		struct ext4_extent_header *leaf;
		unsigned int n;

		if (depth < 0)
			return depth;
		leaf = path[depth].hdr;
		n = ext4_ext_bisect(leaf, lblk);
		if (ext_try_merge(leaf, n, lblk, pblk, len, unwritten)) {
			ext_node_dirty(inode, &path[depth]);
		} else if (!ext_node_full(leaf)) {
			ext_node_insert(leaf, n, &ex);
			ext_node_dirty(inode, &path[depth]);
			if (!n)
				ext_correct_indexes(inode, path, (unsigned int)depth, lblk);
		} else {
			err = ext_make_room(inode, path, (unsigned int)depth, lblk);
			if (!err)
				err = 1; /* look again: the tree changed */
		}
		ext_path_release(path, (unsigned int)depth);
		if (err <= 0)
			return err;
	}
}

/*
 * The hole at lblk: how long it is (up to the next mapped block, known from the leaf or,
 * past its last extent, from the next index key above it), and where its blocks should go
 * (right after the extent before it, so that a file grows contiguously).
 */
u32 ext_hole(struct ext4_ext_path *path, unsigned int depth, u32 lblk, u32 *goal)
{
	struct ext4_extent_header *leaf = path[depth].hdr;
	unsigned int n = ext4_ext_bisect(leaf, lblk), entries = le16_to_cpu(leaf->eh_entries);
	u32 next = EXT_MAX_BLOCKS;

	*goal = 0;
	if (n) {
		const struct ext4_extent *prev = &ext_first(leaf)[n - 1];

		*goal = le32_to_cpu(prev->ee_start_lo) + (lblk - le32_to_cpu(prev->ee_block));
	}
	if (n < entries) {
		next = ext_key(leaf, n);
	} else {
		for (unsigned int level = depth; level-- > 0;) {
			if (path[level].pos + 1 < le16_to_cpu(path[level].hdr->eh_entries)) {
				next = ext_key(path[level].hdr, path[level].pos + 1);
				break;
			}
		}
	}
	return next - lblk;
}

/*
 * Allocate up to maxblocks for the hole at lblk: the number allocated, first in *bno.
 * Unwritten (delayed allocation's writeback, direct IO) they read as zeros until converted.
 * alloc_flags: EXT2_ALLOC_RESERVED when delayed allocation's reservations cover them.
 */
static int ext4_ext_alloc(struct inode *inode, u32 lblk, unsigned long maxblocks, u32 *bno,
			  bool unwritten, int alloc_flags)
{
	struct ext4_ext_path path[EXT4_MAX_EXTENT_DEPTH + 1];
	int depth = ext4_find_extent(inode, lblk, path), err = 0;
	unsigned long count;
	u32 goal, hole;

	if (depth < 0)
		return depth;
	hole = ext_hole(path, (unsigned int)depth, lblk, &goal);
	ext_path_release(path, (unsigned int)depth);
	count = min(min(maxblocks, (unsigned long)hole), (unsigned long)ext_max_len(unwritten));
	*bno = ext2_new_blocks(inode, goal, &count, &err, alloc_flags);
	if (!*bno)
		return err;
	err = ext4_ext_insert_extent(inode, lblk, *bno, (u32)count, unwritten);
	if (err) {
		ext2_free_blocks(inode, *bno, count);
		return err;
	}
	return (int)count;
}

/*
 * ext2_get_blocks() of an extent-mapped inode: map, or with CREATE allocate a hole. With
 * UNWRIT (delayed allocation's writeback, direct IO) unwritten extents map too and holes
 * become unwritten extents; *new then says whether the blocks are unwritten (to be
 * converted once the data is on disk). Delayed allocation's blocks come out of its
 * reservations; direct IO's (DIO) have none. Without UNWRIT, writing into an unwritten
 * extent is refused.
 */
int ext4_get_blocks(struct inode *inode, sector_t iblock, unsigned long maxblocks, u32 *bno,
		    int flags, bool *new)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	bool unwrit = flags & EXT2_GET_BLOCKS_UNWRIT;
	int ret;

	if (iblock >= EXT_MAX_BLOCKS)
		return (flags & EXT2_GET_BLOCKS_CREATE) ? -EFBIG : 0;
	mutex_lock(&ei->truncate_mutex);
	if (unwrit) {
		ret = ext4_ext_map_any(inode, (u32)iblock, maxblocks, bno, new);
		if (!ret && (flags & EXT2_GET_BLOCKS_CREATE)) {
			ret = ext4_ext_alloc(inode, (u32)iblock, maxblocks, bno, true,
					     (flags & EXT2_GET_BLOCKS_DIO) ? 0 : EXT2_ALLOC_RESERVED);
			*new = true;
		}
		mutex_unlock(&ei->truncate_mutex);
		return ret;
	}
	ret = ext4_ext_map_blocks(inode, iblock, maxblocks, bno);
	if (!ret && (flags & EXT2_GET_BLOCKS_CREATE)) {
		ret = ext4_ext_is_unwritten(inode, (u32)iblock);
		if (!ret) {
			ret = ext4_ext_alloc(inode, (u32)iblock, maxblocks, bno, false, 0);
			*new = ret > 0;
		} else if (ret > 0) {
			ext2_error(inode->i_sb, "ext4_ext_map_blocks",
				   "inode #%lu: writing into an unwritten extent is not supported",
				   inode->i_ino);
			ret = -EOPNOTSUPP;
		}
	}
	mutex_unlock(&ei->truncate_mutex);
	return ret;
}
