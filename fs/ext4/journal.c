/*
 * ext4's journal at mount: when the superblock says needs_recovery, the journal inode's
 * log is replayed (fs/jbd2/) before anything else is believed, and the flag cleared. The
 * replay may rewrite any metadata block, the superblock and the descriptors the mount has
 * read included, so fs/ext2/super.c starts the mount over afterwards and checks the
 * replayed image from scratch.
 *
 * As Linux, the replay writes to the device even for a read-only mount: the alternative,
 * reading an image whose last transactions are only in the journal, shows an old state as
 * if it were current. Journals on another device (journal_dev) are refused at mount, and
 * so is recovery on a read-only device, as Linux refuses it (without its noload).
 */
#include "ext4.h"
#include <cgwb/jbd2.h>
#include <cgwb/blkdev.h>
#include <cgwb/errno.h>

/* Journal block n -> the device block: the journal inode's block map or extents. */
int ext4_journal_bmap(void *owner, u32 n, u64 *pblock)
{
	struct inode *inode = owner;
	bool new;
	u32 bno;
	int ret = ext2_get_blocks(inode, n, 1, &bno, 0, &new);

	if (ret < 0)
		return ret;
	if (!ret) {
		ext2_error(inode->i_sb, "ext4_journal_bmap", "journal inode has a hole at block %u",
			   n);
		return -EIO;
	}
	*pblock = bno;
	return 0;
}

struct inode *ext4_get_journal_inode(struct super_block *sb)
{
	u32 inum = le32_to_cpu(EXT2_SB(sb)->s_es->s_journal_inum);
	struct inode *inode = ext2_iget_special(sb, inum);

	if (IS_ERR(inode)) {
		ext2_msg(sb, KERN_ERR, "error: no journal found (inode %u)", inum);
		return inode;
	}
	if (!S_ISREG(inode->i_mode) || !inode->i_nlink ||
	    (inode->i_size >> inode->i_blkbits) >= 1LL << 32) {
		ext2_msg(sb, KERN_ERR, "error: invalid journal inode %u (mode %o, size %lld)", inum,
			 inode->i_mode, inode->i_size);
		iput(inode);
		return ERR_PTR(-EIO);
	}
	return inode;
}

/*
 * The superblock after replay: needs_recovery off, the free counts the replayed
 * descriptors add up to (Linux keeps them in memory while mounted and writes them at
 * umount, so after a crash the superblock's are stale), the checksum right, on disk now.
 */
static int ext4_mark_recovery_complete(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	struct ext2_super_block *es = sbi->s_es;

	es->s_feature_incompat &= ~cpu_to_le32(EXT3_FEATURE_INCOMPAT_RECOVER);
	es->s_free_blocks_count = cpu_to_le32(ext2_count_free_blocks(sb));
	es->s_free_blocks_count_hi = 0;
	es->s_free_inodes_count = cpu_to_le32(ext2_count_free_inodes(sb));
	ext4_superblock_csum_set(sb);
	mark_buffer_dirty(sbi->s_sbh);
	return sync_dirty_buffer(sbi->s_sbh);
}

int ext4_recover_journal(struct super_block *sb)
{
	struct inode *inode;
	journal_t *journal;
	int err;

	if (bdev_read_only(sb->s_bdev)) {
		/* as Linux: reading the image without its last transactions would mislead */
		ext2_msg(sb, KERN_ERR,
			 "error: the journal needs recovery and the device is read-only: cannot "
			 "proceed");
		return -EROFS;
	}
	inode = ext4_get_journal_inode(sb);
	if (IS_ERR(inode))
		return (int)PTR_ERR(inode);
	journal = jbd2_journal_init(sb->s_bdev, (unsigned int)sb->s_blocksize,
				    (u32)(inode->i_size >> inode->i_blkbits), ext4_journal_bmap,
				    inode, sb->s_id);
	err = journal ? jbd2_journal_load(journal) : -ENOMEM;
	if (!err)
		ext2_msg(sb, KERN_INFO,
			 "recovery complete: %u transactions, %u blocks replayed, %u revoked",
			 journal->j_replayed_transactions, journal->j_replayed_blocks,
			 journal->j_revoked_blocks);
	else
		ext2_msg(sb, KERN_ERR, "error loading journal (%d)", err);
	jbd2_journal_destroy(journal);
	iput(inode);
	return err ? err : ext4_mark_recovery_complete(sb);
}
