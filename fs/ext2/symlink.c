/*
 * Symbolic links. A target shorter than the block map (60 bytes) is kept in i_data itself
 * (a "fast" symlink, no block); a longer one gets one data block, read and written as a
 * metadata buffer like a directory block.
 */
#include "ext2.h"
#include <cgwb/errno.h>
#include <cgwb/string.h>

#define EXT2_FAST_SYMLINK_MAX (sizeof(((struct ext2_inode_info *)0)->i_data) - 1)

static int copy_target(char *buf, int size, const char *target, loff_t len)
{
	int n = (int)min(len, (loff_t)size - 1);

	if (size <= 0)
		return -EINVAL;
	memcpy(buf, target, (size_t)n);
	buf[n] = '\0';
	return n;
}

static int ext2_bad_symlink(struct inode *inode)
{
	ext2_error(inode->i_sb, "ext2_readlink", "symlink inode %lu: bad size %lld", inode->i_ino,
		   inode->i_size);
	return -EIO;
}

static int ext2_fast_readlink(struct dentry *dentry, char *buf, int size)
{
	struct inode *inode = dentry->d_inode;

	if (inode->i_size <= 0 || inode->i_size > (loff_t)EXT2_FAST_SYMLINK_MAX)
		return ext2_bad_symlink(inode);
	return copy_target(buf, size, (const char *)EXT2_I(inode)->i_data, inode->i_size);
}

static int ext2_slow_readlink(struct dentry *dentry, char *buf, int size)
{
	struct inode *inode = dentry->d_inode;
	struct buffer_head *bh;
	bool new;
	u32 bno;
	int ret;

	if (inode->i_size <= 0 || inode->i_size >= (loff_t)inode->i_sb->s_blocksize)
		return ext2_bad_symlink(inode);
	ret = ext2_get_blocks(inode, 0, 1, &bno, 0, &new);
	if (ret <= 0) {
		if (!ret)
			ext2_error(inode->i_sb, "ext2_readlink", "symlink inode %lu has no block",
				   inode->i_ino);
		return ret ? ret : -EIO;
	}
	bh = sb_bread(inode->i_sb, bno);
	if (!bh) {
		ext2_error(inode->i_sb, "ext2_readlink", "symlink inode %lu: cannot read block %u",
			   inode->i_ino, bno);
		return -EIO;
	}
	ret = copy_target(buf, size, bh->b_data, inode->i_size);
	brelse(bh);
	return ret;
}

/* Store the target of a new symlink inode. */
int ext2_write_symlink(struct inode *inode, const char *target, unsigned int len)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	struct buffer_head *bh;
	bool new;
	u32 bno;
	int ret;

	if (len <= EXT2_FAST_SYMLINK_MAX) {
		memset(ei->i_data, 0, sizeof(ei->i_data));
		memcpy(ei->i_data, target, len);
		inode->i_op = &ext2_fast_symlink_inode_operations;
	} else {
		ret = ext2_get_blocks(inode, 0, 1, &bno, EXT2_GET_BLOCKS_CREATE, &new);
		if (ret < 0)
			return ret;
		bh = sb_getblk(inode->i_sb, bno);
		if (!bh)
			return -EIO; /* the block goes with the inode */
		lock_buffer(bh);
		memset(bh->b_data, 0, bh->b_size);
		memcpy(bh->b_data, target, len);
		set_buffer_uptodate(bh);
		unlock_buffer(bh);
		ext2_dirty_metadata(inode->i_sb, bh);
		brelse(bh);
		inode->i_op = &ext2_symlink_inode_operations;
	}
	inode->i_size = len;
	mark_inode_dirty(inode);
	return 0;
}

const struct inode_operations ext2_fast_symlink_inode_operations = {
	.readlink = ext2_fast_readlink,
	.setattr = ext2_setattr,
};

const struct inode_operations ext2_symlink_inode_operations = {
	.readlink = ext2_slow_readlink,
	.setattr = ext2_setattr,
};
