/*
 * The system zone, as Linux's block_validity: the runs of blocks the filesystem's own
 * metadata takes (superblock and descriptor copies with their reserved blocks, bitmaps,
 * inode tables), so that a block pointer read from disk can be refused before it is
 * followed or, worse, written through.
 *
 * ext2 keeps a group's metadata inside the group, and one group's layout answers whether
 * a block is metadata (fs/ext2/balloc.c). With flex_bg the bitmaps and tables of sixteen
 * groups are packed together, and an extent is a run that may cross groups, so images with
 * extents or flex_bg get this list: built once at mount from the checked descriptors,
 * sorted and merged, then searched by bisection. It is never changed while mounted (the
 * metadata does not move), so lookups take no lock.
 *
 * The journal's blocks are added once the metadata is in (the journal inode's own extents
 * are checked against it), as Linux's ext4_protect_reserved_inode(): a file pointing into
 * the journal would be overwritten by the next replay.
 */
#include "ext4.h"
#include <cgwb/errno.h>
#include <cgwb/vmalloc.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>

static void zone_add(struct ext4_system_zone *z, unsigned int *n, u32 start, u32 count)
{
	if (count)
		z[(*n)++] = (struct ext4_system_zone){ .start = start, .count = count };
}

/* Shell sort by start: a few thousand runs at most, sorted once per mount. */
static void zone_sort(struct ext4_system_zone *z, unsigned int n)
{
	for (unsigned int gap = n / 2; gap; gap /= 2)
		for (unsigned int i = gap; i < n; i++) {
			struct ext4_system_zone v = z[i];
			unsigned int j = i;

			for (; j >= gap && z[j - gap].start > v.start; j -= gap)
				z[j] = z[j - gap];
			z[j] = v;
		}
}

/* Runs of one owner that touch or overlap become one; returns the new count. */
static unsigned int zone_merge(struct ext4_system_zone *z, unsigned int n)
{
	unsigned int out = 0;

	for (unsigned int i = 0; i < n; i++) {
		struct ext4_system_zone *last = out ? &z[out - 1] : NULL;
		u64 last_end = last ? (u64)last->start + last->count : 0;

		if (last && z[i].start <= last_end && z[i].ino == last->ino) {
			u64 end = (u64)z[i].start + z[i].count;

			if (end > last_end)
				last->count = (u32)(end - last->start);
			continue;
		}
		z[out++] = z[i];
	}
	return out;
}

/* The zone with runs[0..nr) added: a new sorted, merged array in place of the old. */
static int zone_extend(struct super_block *sb, const struct ext4_system_zone *runs, unsigned int nr)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	unsigned int n = sbi->s_system_zone_count;
	struct ext4_system_zone *z;

	if (!nr)
		return 0; /* an empty journal (a corrupt size) adds nothing */
	z = kvmalloc((size_t)(n + nr) * sizeof(*z), GFP_KERNEL);
	if (!z)
		return -ENOMEM;
	memcpy(z, sbi->s_system_zone, n * sizeof(*z));
	memcpy(z + n, runs, nr * sizeof(*z));
	zone_sort(z, n + nr);
	kvfree(sbi->s_system_zone);
	sbi->s_system_zone = z;
	sbi->s_system_zone_count = zone_merge(z, n + nr);
	return 0;
}

/* The journal inode's runs of blocks (a journal has no holes: one is corruption). */
static int journal_runs(struct inode *inode, struct ext4_system_zone **runs, unsigned int *nr)
{
	u64 len = min((u64)(inode->i_size >> inode->i_blkbits),
		      (u64)EXT2_SB(inode->i_sb)->s_blocks_count);
	unsigned int cap = 0;

	for (u64 b = 0; b < len;) {
		bool new;
		u32 bno;
		int ret = ext2_get_blocks(inode, b, (unsigned long)(len - b), &bno, 0, &new);

		if (ret <= 0) {
			ext2_msg(inode->i_sb, KERN_ERR, "error: journal inode: %s at block %llu",
				 ret ? "unreadable map" : "a hole", (unsigned long long)b);
			return ret ? ret : -EIO;
		}
		if (*nr == cap) {
			struct ext4_system_zone *more =
				krealloc(*runs, (cap * 2 + 8) * sizeof(**runs), GFP_KERNEL);

			if (!more)
				return -ENOMEM;
			*runs = more;
			cap = cap * 2 + 8;
		}
		(*runs)[(*nr)++] = (struct ext4_system_zone){ .start = bno,
							      .count = (u32)ret,
							      .ino = (u32)inode->i_ino };
		b += (u64)ret;
	}
	return 0;
}

static int ext4_protect_journal(struct super_block *sb)
{
	struct ext2_super_block *es = EXT2_SB(sb)->s_es;
	struct ext4_system_zone *runs = NULL;
	unsigned int nr = 0;
	struct inode *inode;
	int err;

	if (!(le32_to_cpu(es->s_feature_compat) & EXT3_FEATURE_COMPAT_HAS_JOURNAL) ||
	    !es->s_journal_inum)
		return 0;
	inode = ext2_iget_special(sb, le32_to_cpu(es->s_journal_inum));
	if (IS_ERR(inode)) {
		ext2_msg(sb, KERN_ERR, "error: cannot read the journal inode %u",
			 le32_to_cpu(es->s_journal_inum));
		return (int)PTR_ERR(inode);
	}
	err = journal_runs(inode, &runs, &nr);
	iput(inode);
	if (!err)
		err = zone_extend(sb, runs, nr);
	kfree(runs);
	return err;
}

int ext4_setup_system_zone(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	struct ext4_system_zone *z;
	unsigned int n = 0;

	if (!ext2_has_incompat(sb, EXT4_FEATURE_INCOMPAT_EXTENTS | EXT4_FEATURE_INCOMPAT_FLEX_BG))
		return 0;
	z = kvmalloc((size_t)sbi->s_groups_count * 4 * sizeof(*z), GFP_KERNEL);
	if (!z)
		return -ENOMEM;
	for (unsigned int g = 0; g < sbi->s_groups_count; g++) {
		struct ext2_group_desc *gd = ext2_get_group_desc(sb, g, NULL);

		zone_add(z, &n, ext2_group_first_block(sb, g), ext2_group_sb_blocks(sb, g));
		zone_add(z, &n, le32_to_cpu(gd->bg_block_bitmap), 1);
		zone_add(z, &n, le32_to_cpu(gd->bg_inode_bitmap), 1);
		zone_add(z, &n, le32_to_cpu(gd->bg_inode_table), sbi->s_itb_per_group);
	}
	zone_sort(z, n);
	sbi->s_system_zone_count = zone_merge(z, n);
	sbi->s_system_zone = z;
	return ext4_protect_journal(sb);
}

void ext4_release_system_zone(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);

	kvfree(sbi->s_system_zone);
	sbi->s_system_zone = NULL;
	sbi->s_system_zone_count = 0;
}

bool ext4_in_system_zone(struct super_block *sb, u32 start, u32 count, unsigned long ino)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	const struct ext4_system_zone *z = sbi->s_system_zone;
	unsigned int lo = 0, hi = sbi->s_system_zone_count;
	u64 end = (u64)start + count;

	/* the first run that ends after start; it meets the range if it begins before its end */
	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if ((u64)z[mid].start + z[mid].count <= start)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* runs of different owners may overlap (a corrupt image): every one that meets counts */
	for (; lo < sbi->s_system_zone_count && z[lo].start < end; lo++)
		if (!z[lo].ino || z[lo].ino != ino)
			return true;
	return false;
}
