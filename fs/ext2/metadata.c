/*
 * How the shared code's changes to metadata reach the disk: through the journal on a type
 * ext4 mount that has one, in place otherwise, as Linux's ext4_journal_start() and
 * ext4_handle_dirty_metadata() go to jbd2 or, without a journal, to mark_buffer_dirty().
 * Callers say what changed (a handle around the change, each buffer dirtied or forgotten,
 * the superblock's buffer with its checksum set again) and never which way it goes.
 * The superblock's free counts are not kept in its buffer while mounted: they are copied in
 * from the per-CPU counters whenever it is written.
 *
 * Nearly every file of the driver, and fs/ext4/, changes metadata, so this calls nothing
 * else of the driver: none of them needs the mount code to write.
 */
#include "ext2.h"
#include <cgwb/jiffies.h>

int ext2_journal_start(struct super_block *sb)
{
	const struct ext2_family_ops *family = ext2_family(sb);

	return family ? family->journal_start(sb) : 0;
}

void ext2_journal_stop(struct super_block *sb)
{
	const struct ext2_family_ops *family = ext2_family(sb);

	if (family)
		family->journal_stop(sb);
}

void ext2_dirty_metadata(struct super_block *sb, struct buffer_head *bh)
{
	const struct ext2_family_ops *family = ext2_family(sb);

	if (family)
		family->dirty_metadata(sb, bh);
	else
		mark_buffer_dirty(bh);
}

void ext2_forget_metadata(struct super_block *sb, struct buffer_head *bh)
{
	const struct ext2_family_ops *family = ext2_family(sb);

	if (family)
		family->forget(sb, bh);
	bforget(bh);
}

void ext2_sb_csum(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);

	if (sbi->s_family) {
		spin_lock(&sbi->s_sb_csum_lock);
		sbi->s_family->super_csum_set(sb);
		spin_unlock(&sbi->s_sb_csum_lock);
	}
}

void ext2_sb_dirty(struct super_block *sb)
{
	ext2_sb_csum(sb);
	mark_buffer_dirty(EXT2_SB(sb)->s_sbh);
}

/*
 * Written in place, a change made under a handle would reach the disk before the commit
 * that makes it atomic with the rest, and with whatever else the buffer holds by then (a
 * later transaction's free counts): a crash before that commit would keep it all the same.
 */
void ext2_sb_dirty_metadata(struct super_block *sb)
{
	ext2_sb_csum(sb);
	ext2_dirty_metadata(sb, EXT2_SB(sb)->s_sbh);
}

/* Write the in-memory counters and times to the superblock buffer; wait if sync. */
int ext2_commit_super(struct super_block *sb, bool sync)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	struct ext2_super_block *es = sbi->s_es;

	mutex_lock(&sbi->s_lock);
	es->s_free_blocks_count =
		cpu_to_le32((u32)percpu_counter_sum_positive(&sbi->s_freeblocks_counter));
	es->s_free_inodes_count =
		cpu_to_le32((u32)percpu_counter_sum_positive(&sbi->s_freeinodes_counter));
	es->s_wtime = cpu_to_le32((u32)ktime_get_real_seconds());
	mutex_unlock(&sbi->s_lock);
	ext2_sb_dirty(sb);
	return sync ? sync_dirty_buffer(sbi->s_sbh) : 0;
}

/* The superblock into its buffer (written with the device's other metadata). */
void ext2_write_super(struct super_block *sb)
{
	if (!(sb->s_flags & SB_RDONLY))
		ext2_commit_super(sb, false);
}
