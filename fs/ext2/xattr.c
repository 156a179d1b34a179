/*
 * Extended attributes (ext_attr): not interpreted, only kept valid. An inode's attribute
 * block may be shared by several inodes (h_refcount); deleting an inode drops its share
 * and frees the block with the last one, as e2fsck expects.
 */
#include "ext2.h"

void ext2_xattr_delete_inode(struct inode *inode)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	struct super_block *sb = inode->i_sb;
	struct ext2_xattr_header *h;
	struct buffer_head *bh;
	u32 block = ei->i_file_acl;

	if (!block)
		return;
	ei->i_file_acl = 0;
	mark_inode_dirty(inode);
	if (ext2_block_pointer_problem(inode, block)) {
		ext2_error(sb, __func__, "inode %lu: bad extended attribute block %u", inode->i_ino,
			   block);
		return;
	}
	bh = sb_bread(sb, block);
	if (!bh) {
		ext2_error(sb, __func__, "inode %lu: cannot read extended attribute block %u",
			   inode->i_ino, block);
		return;
	}
	h = (struct ext2_xattr_header *)bh->b_data;
	if (le32_to_cpu(h->h_magic) != EXT2_XATTR_MAGIC || le32_to_cpu(h->h_blocks) != 1 ||
	    !le32_to_cpu(h->h_refcount)) {
		ext2_error(sb, __func__, "inode %lu: bad extended attribute block %u", inode->i_ino,
			   block);
		brelse(bh);
		return;
	}
	if (le32_to_cpu(h->h_refcount) == 1) {
		wait_on_buffer(bh);
		ext2_forget_metadata(inode->i_sb, bh);
		ext2_free_blocks(inode, block, 1);
		return;
	}
	le32_add_cpu(&h->h_refcount, -1);
	ext2_dirty_metadata(inode->i_sb, bh);
	brelse(bh);
	/* the block stays for its other owners: it no longer counts for this inode */
	inode->i_blocks -= min(inode->i_blocks, (u64)(sb->s_blocksize >> 9));
}
