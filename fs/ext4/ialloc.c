/*
 * Where a new inode goes on a flex_bg image, as Linux's ext4 (find_group_other() and
 * find_group_orlov() over flex groups, fs/ext4/ialloc.c).
 *
 * flex_bg packs the bitmaps and inode tables of 2^s_log_groups_per_flex groups together at
 * the start of the first, so the groups of a flex group are one place for metadata and
 * the data near it. A file's inode goes in the first group of its directory's flex group
 * that has a free inode (the inodes of a directory's files stay packed in a few inode
 * table blocks); when that flex group is full it goes where a directory would. A
 * directory goes in the first group with a free inode of a flex group chosen as Orlov
 * chooses: a top-level one in the flex group with the fewest directories among those
 * with at least the average free inodes and blocks (trees spread over the disk), another
 * in its parent's flex group while that keeps at least three quarters of the average
 * free, else in the flex group with the most free blocks among those with the average
 * free inodes.
 *
 * Not as Linux: Orlov's random start for top-level directories (the first flex group
 * wins a tie here: easier to test), its cap on a flex group's directories and the
 * parent's last allocation group (i_last_alloc_group) are left out.
 * ext2_ialloc's own search takes over when this finds nothing. s_lock held (ialloc.c):
 * the descriptors' counts are read without the groups' locks, as Linux's
 * find_group_orlov() reads them; the averages are their sums, not the per-CPU counters,
 * whose cheap reads could put every flex group below the average (ialloc.c).
 */
#include "ext4.h"
#include <cgwb/errno.h>

/* Groups per flex group; 1 (no grouping) for a size out of range, as Linux ignores flex_bg's. */
static unsigned int flex_size(struct super_block *sb)
{
	unsigned int log = EXT2_SB(sb)->s_es->s_log_groups_per_flex;

	return log >= 1 && log <= 31 ? 1U << log : 1;
}

static u32 group_free_inodes(struct super_block *sb, unsigned int g)
{
	return le16_to_cpu(ext2_get_group_desc(sb, g, NULL)->bg_free_inodes_count);
}

/* The first group of flex group f with a free inode, or -1. */
static int first_group_with_inodes(struct super_block *sb, unsigned int f)
{
	unsigned int ngroups = EXT2_SB(sb)->s_groups_count;
	unsigned int last = min(ngroups, (f + 1) * flex_size(sb));

	for (unsigned int g = f * flex_size(sb); g < last; g++)
		if (group_free_inodes(sb, g))
			return (int)g;
	return -1;
}

struct flex_stats {
	u32 free_inodes, free_blocks, used_dirs;
};

static void flex_stats(struct super_block *sb, unsigned int f, struct flex_stats *st)
{
	unsigned int last = min(EXT2_SB(sb)->s_groups_count, (f + 1) * flex_size(sb));

	*st = (struct flex_stats){ 0 };
	for (unsigned int g = f * flex_size(sb); g < last; g++) {
		struct ext2_group_desc *gd = ext2_get_group_desc(sb, g, NULL);

		st->free_inodes += le16_to_cpu(gd->bg_free_inodes_count);
		st->free_blocks += le16_to_cpu(gd->bg_free_blocks_count);
		st->used_dirs += le16_to_cpu(gd->bg_used_dirs_count);
	}
}

static unsigned int nr_flex(struct super_block *sb)
{
	return DIV_ROUND_UP(EXT2_SB(sb)->s_groups_count, flex_size(sb));
}

/*
 * The flex group for a directory: top (a top-level one) picks the fewest directories,
 * else the parent's flex group if it keeps 3/4 of the average, else the most free blocks;
 * each among flex groups with the average free inodes (and blocks, for top). -1: none.
 */
static int find_flex_for_dir(struct super_block *sb, unsigned int parent_flex, bool top)
{
	u32 avg_inodes = ext2_count_free_inodes(sb) / nr_flex(sb);
	u32 avg_blocks = ext2_count_free_blocks(sb) / nr_flex(sb);
	struct flex_stats st, best_st = { 0 };
	int best = -1;

	flex_stats(sb, parent_flex, &st);
	if (!top && st.free_inodes && st.free_inodes >= avg_inodes - avg_inodes / 4 &&
	    st.free_blocks >= avg_blocks - avg_blocks / 4)
		return (int)parent_flex;
	for (unsigned int f = 0; f < nr_flex(sb); f++) {
		flex_stats(sb, f, &st);
		if (!st.free_inodes || st.free_inodes < avg_inodes ||
		    (top && st.free_blocks < avg_blocks))
			continue;
		if (best < 0 || (top ? st.used_dirs < best_st.used_dirs :
				       st.free_blocks > best_st.free_blocks)) {
			best = (int)f;
			best_st = st;
		}
	}
	return best;
}

int ext4_find_inode_group(struct super_block *sb, struct inode *dir, bool is_dir)
{
	unsigned int parent_flex;
	int f;

	if (!ext4_has_feature_flex_bg(sb) || flex_size(sb) < 2)
		return -EOPNOTSUPP;
	parent_flex = (EXT2_I(dir)->i_block_group % EXT2_SB(sb)->s_groups_count) / flex_size(sb);
	if (!is_dir) {
		int g = first_group_with_inodes(sb, parent_flex);

		if (g >= 0)
			return g;
	}
	f = find_flex_for_dir(sb, parent_flex, is_dir && dir->i_ino == EXT2_ROOT_INO);
	return f < 0 ? -EOPNOTSUPP : first_group_with_inodes(sb, (unsigned int)f);
}
