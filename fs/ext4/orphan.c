/*
 * The orphan list, as Linux's (fs/ext4/orphan.c): inodes whose last name went while they
 * were still open. Their blocks are freed only when the last user lets go; a crash before
 * that would leave an inode no directory names, with its blocks, for e2fsck to find. So
 * the unlink that takes the last link puts the inode at the head of a list on disk: the
 * superblock's s_last_orphan names it, and its i_dtime (which a live inode does not use)
 * names the next. Eviction takes it off before it frees it; a mount after a crash frees
 * what the list still names (or truncates it to its size, for an inode that still has
 * links), in the same handles as an eviction would.
 *
 * The list is kept in memory too (s_orphans, in the order of the chain on disk), so that
 * an inode in its middle is unlinked by rewriting the one before it, which is in memory:
 * an inode on the list is open, or being evicted. Changes are made under a handle: the
 * inodes go into their buffers at the commit and the superblock is logged with it.
 * Without a journal there is no list, as on Linux (e2fsck finds such inodes).
 *
 * Not as Linux: a truncate does not put its inode on the list for the time it runs (a
 * crash in the middle of a large truncate is left to e2fsck), and orphan_file's inode is
 * not used: orphans go on the superblock's list, which Linux reads as well. Locking:
 * s_orphan_lock, inside a handle.
 */
#include "ext4.h"
#include <cgwb/errno.h>

static bool ext4_orphans_kept(struct super_block *sb)
{
	return EXT2_SB(sb)->s_journal != NULL;
}

/* The last link of inode went (a handle is open): on the list until its eviction. */
void ext4_orphan_add(struct inode *inode)
{
	struct super_block *sb = inode->i_sb;
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	struct ext2_inode_info *ei = EXT2_I(inode);

	if (!ext4_orphans_kept(sb) || inode->i_nlink)
		return;
	mutex_lock(&sbi->s_orphan_lock);
	if (list_empty(&ei->i_orphan)) {
		ei->i_dtime = le32_to_cpu(sbi->s_es->s_last_orphan);
		sbi->s_es->s_last_orphan = cpu_to_le32((u32)inode->i_ino);
		list_add(&ei->i_orphan, &sbi->s_orphans);
		mark_inode_dirty(inode);
		ext2_sb_dirty_metadata(sb);
	}
	mutex_unlock(&sbi->s_orphan_lock);
}

/* Off the list (a handle is open): the one before it, or the superblock, skips it. */
void ext4_orphan_del(struct inode *inode)
{
	struct super_block *sb = inode->i_sb;
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	struct ext2_inode_info *ei = EXT2_I(inode), *prev;

	mutex_lock(&sbi->s_orphan_lock);
	if (!list_empty(&ei->i_orphan)) {
		if (ei->i_orphan.prev == &sbi->s_orphans) {
			sbi->s_es->s_last_orphan = cpu_to_le32(ei->i_dtime);
			ext2_sb_dirty_metadata(sb);
		} else {
			prev = list_entry(ei->i_orphan.prev, struct ext2_inode_info, i_orphan);
			prev->i_dtime = ei->i_dtime;
			mark_inode_dirty(&prev->vfs_inode);
		}
		list_del_init(&ei->i_orphan);
		ei->i_dtime = 0;
		mark_inode_dirty(inode);
	}
	mutex_unlock(&sbi->s_orphan_lock);
}

/* The list's head, read and put on the in-memory list; NULL at its end, or an error. */
static struct inode *ext4_orphan_next(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	u32 ino = le32_to_cpu(sbi->s_es->s_last_orphan);
	struct inode *inode;

	if (!ino)
		return NULL;
	if (ino < sbi->s_first_ino || ino > sbi->s_inodes_count) {
		ext2_msg(sb, KERN_ERR, "error: bad orphan inode %u, run e2fsck", ino);
		return ERR_PTR(-EIO);
	}
	inode = ext2_iget(sb, ino);
	if (IS_ERR(inode))
		return inode;
	mutex_lock(&sbi->s_orphan_lock);
	if (list_empty(&EXT2_I(inode)->i_orphan))
		list_add(&EXT2_I(inode)->i_orphan, &sbi->s_orphans);
	mutex_unlock(&sbi->s_orphan_lock);
	return inode;
}

/* One orphan done: an unlinked one freed by its eviction, a linked one truncated. */
static int ext4_orphan_process(struct super_block *sb, struct inode *inode, unsigned int *freed)
{
	int err = 0;

	if (inode->i_nlink) {
		err = ext2_journal_start(sb);
		if (!err) {
			err = ext2_truncate_blocks(inode, inode->i_size);
			ext4_orphan_del(inode);
			ext2_journal_stop(sb);
		}
	} else {
		++*freed;
	}
	iput(inode); /* the last reference: an unlinked inode is freed here */
	return err;
}

/*
 * A read-write mount (the journal replayed and loaded): what the list names is done
 * with. A list that cannot be followed is cleared with an error (e2fsck finds the rest).
 */
int ext4_orphan_cleanup(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	unsigned int freed = 0, truncated = 0;
	struct inode *inode;
	int err = 0;

	if (!ext4_orphans_kept(sb) || !sbi->s_es->s_last_orphan)
		return 0;
	sbi->s_orphan_cleanup = true;
	while (!err && (inode = ext4_orphan_next(sb))) {
		u32 head = le32_to_cpu(sbi->s_es->s_last_orphan);

		if (IS_ERR(inode)) {
			err = (int)PTR_ERR(inode);
			break;
		}
		truncated += inode->i_nlink != 0;
		err = ext4_orphan_process(sb, inode, &freed);
		if (!err && le32_to_cpu(sbi->s_es->s_last_orphan) == head)
			err = -EIO; /* its eviction did not take it off: never loop */
	}
	sbi->s_orphan_cleanup = false;
	if (err) {
		ext2_msg(sb, KERN_ERR, "error: orphan list left at inode %u (%d), run e2fsck",
			 le32_to_cpu(sbi->s_es->s_last_orphan), err);
		sbi->s_es->s_last_orphan = 0;
		ext2_sb_dirty(sb);
	}
	if (freed || truncated)
		ext2_msg(sb, KERN_INFO, "%u orphan inode%s deleted, %u truncated", freed,
			 freed == 1 ? "" : "s", truncated);
	return 0;
}
