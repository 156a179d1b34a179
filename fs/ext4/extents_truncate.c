/*
 * Shrinking the extent tree (truncate, and deletion with size 0), as Linux's
 * ext4_ext_remove_space(): from the last entry of each node backwards, every extent at or
 * past the new end goes back to the bitmaps (the one that straddles it is shortened), and
 * a node left empty is freed and its entry removed from its parent. An index entry whose
 * range starts before the end keeps a first extent, so its node and the keys above it
 * stay as they are. A root left with one child that fits in it takes the child's entries
 * (Linux's ext4_ext_try_to_merge_up: the tree gets shorter again), and a root left empty
 * at depth > 0 becomes an empty leaf again.
 *
 * Blocks of directories and of the tree itself live in the device's cache: they are
 * forgotten before being freed, or a dirty copy written later would land on whatever
 * owns the block by then. Callers: ext2_truncate_blocks() (i_rwsem, or the last reference).
 */
#include "ext4_extents.h"
#include <cgwb/errno.h>
#include <cgwb/string.h>

static void ext_forget(struct super_block *sb, u32 block, u32 count)
{
	for (u32 i = 0; i < count; i++) {
		struct buffer_head *bh = sb_getblk(sb, block + i);

		if (!bh)
			continue;
		wait_on_buffer(bh);
		ext2_forget_metadata(sb, bh);
	}
}

static void ext_free_data(struct inode *inode, u32 block, u32 count)
{
	if (!S_ISREG(inode->i_mode))
		ext_forget(inode->i_sb, block, count);
	ext2_free_blocks(inode, block, count);
}

/* A leaf's extents at or past from, removed; the count of entries left. */
static unsigned int ext_rm_leaf(struct inode *inode, struct ext4_extent_header *eh, u32 from)
{
	unsigned int n = le16_to_cpu(eh->eh_entries);

	while (n) {
		struct ext4_extent *ex = &ext_first(eh)[n - 1];
		u32 start = le32_to_cpu(ex->ee_block), len = ext_len(ex);
		u32 pblk = le32_to_cpu(ex->ee_start_lo);

		if (start >= from) {
			ext_free_data(inode, pblk, len);
			n--;
			continue;
		}
		if (start + len > from) {
			u32 keep = from - start;

			ext_free_data(inode, pblk + keep, len - keep);
			ex->ee_len = cpu_to_le16(
				(u16)(ext_unwritten(ex) ? keep + EXT4_EXT_INIT_MAX_LEN : keep));
		}
		break;
	}
	eh->eh_entries = cpu_to_le16((u16)n);
	return n;
}

static int ext_rm_node(struct inode *inode, struct ext4_extent_header *eh, u32 from);

/* Index entry i of eh: its subtree shrunk; the child freed if it is left empty. */
static int ext_rm_child(struct inode *inode, struct ext4_extent_header *eh, unsigned int i, u32 from)
{
	u32 pblk = le32_to_cpu(idx_first(eh)[i].ei_leaf_lo);
	struct buffer_head *bh = ext4_ext_read_node(inode, pblk, le16_to_cpu(eh->eh_depth) - 1);
	int left;

	if (IS_ERR(bh))
		return (int)PTR_ERR(bh);
	left = ext_rm_node(inode, (void *)bh->b_data, from);
	if (left > 0) {
		ext4_extent_block_csum_set(inode, (void *)bh->b_data);
		ext2_dirty_metadata(inode->i_sb, bh);
		brelse(bh);
		return left;
	}
	if (left == 0) {
		wait_on_buffer(bh);
		ext2_forget_metadata(inode->i_sb, bh);
		ext2_free_blocks(inode, pblk, 1);
	} else {
		brelse(bh);
	}
	return left;
}

/* Everything of node eh at or past from removed: the entries left, or -errno. */
static int ext_rm_node(struct inode *inode, struct ext4_extent_header *eh, u32 from)
{
	unsigned int n = le16_to_cpu(eh->eh_entries);

	if (!eh->eh_depth)
		return (int)ext_rm_leaf(inode, eh, from);
	while (n) {
		u32 key = le32_to_cpu(idx_first(eh)[n - 1].ei_block);
		int left = ext_rm_child(inode, eh, n - 1, from);

		if (left < 0) {
			eh->eh_entries = cpu_to_le16((u16)n);
			return left;
		}
		if (!left)
			n--;
		if (key < from)
			break;
	}
	eh->eh_entries = cpu_to_le16((u16)n);
	return (int)n;
}

/*
 * The root's children together fit in the root: their entries move up, in order, and
 * their blocks are freed (the tree is one level shorter). e2fsck would otherwise offer to
 * rebuild a tree whose level holds fewer entries than the level above has slots.
 */
static int ext_pull_up(struct inode *inode)
{
	struct ext4_extent_header *root = ext_root(inode);
	unsigned int n = le16_to_cpu(root->eh_entries), depth = le16_to_cpu(root->eh_depth);
	struct ext4_extent moved[4];
	struct buffer_head *bh[4] = { NULL };
	unsigned int total = 0;
	int err = 0;

	for (unsigned int i = 0; i < n && !err; i++) {
		struct ext4_extent_header *eh;

		bh[i] = ext4_ext_read_node(inode, le32_to_cpu(idx_first(root)[i].ei_leaf_lo),
					   depth - 1);
		if (IS_ERR(bh[i])) {
			err = (int)PTR_ERR(bh[i]);
			bh[i] = NULL;
			break;
		}
		eh = (void *)bh[i]->b_data;
		if (total + le16_to_cpu(eh->eh_entries) > ARRAY_SIZE(moved)) {
			err = 1; /* does not fit: nothing to do */
			break;
		}
		memcpy(&moved[total], ext_first(eh), le16_to_cpu(eh->eh_entries) * sizeof(moved[0]));
		total += le16_to_cpu(eh->eh_entries);
	}
	for (unsigned int i = 0; i < n; i++) {
		u32 pblk = le32_to_cpu(idx_first(root)[i].ei_leaf_lo);

		if (err || !bh[i]) {
			brelse(bh[i]);
			continue;
		}
		wait_on_buffer(bh[i]);
		ext2_forget_metadata(inode->i_sb, bh[i]);
		ext2_free_blocks(inode, pblk, 1);
	}
	if (err)
		return err;
	memcpy(ext_first(root), moved, total * sizeof(moved[0]));
	root->eh_entries = cpu_to_le16((u16)total);
	root->eh_depth = cpu_to_le16((u16)(depth - 1));
	return 0;
}

/* Linux's ext4_ext_try_to_merge_up, for every child of the root at once, while it fits. */
static int ext4_ext_try_to_merge_up(struct inode *inode)
{
	int err = 0;

	while (!err && ext_root(inode)->eh_depth && ext_root(inode)->eh_entries)
		err = ext_pull_up(inode);
	return err > 0 ? 0 : err;
}

int ext4_ext_truncate(struct inode *inode, loff_t size)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	struct ext4_extent_header *root = ext_root(inode);
	u64 from = (u64)DIV_ROUND_UP(size, (loff_t)inode->i_sb->s_blocksize);
	int err = 0;

	ext2_discard_reservation(inode);
	mutex_lock(&ei->truncate_mutex);
	if (from < EXT_MAX_BLOCKS)
		err = ext_rm_node(inode, root, (u32)from);
	if (!root->eh_entries && root->eh_depth)
		root->eh_depth = 0; /* eh_max is the root's 4 at every depth */
	if (err >= 0)
		err = ext4_ext_try_to_merge_up(inode);
	if (ei->i_next_alloc_block >= from) {
		ei->i_next_alloc_block = 0;
		ei->i_next_alloc_goal = 0;
	}
	mutex_unlock(&ei->truncate_mutex);
	mark_inode_dirty(inode);
	return err < 0 ? err : 0;
}
