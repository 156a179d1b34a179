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
 * The journal's blocks are not in it yet: nothing in the tree writes there.
 */
#include "ext4.h"
#include <cgwb/errno.h>
#include <cgwb/vmalloc.h>

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

/* Runs that touch or overlap become one; returns the new count. */
static unsigned int zone_merge(struct ext4_system_zone *z, unsigned int n)
{
	unsigned int out = 0;

	for (unsigned int i = 0; i < n; i++) {
		struct ext4_system_zone *last = out ? &z[out - 1] : NULL;
		u64 last_end = last ? (u64)last->start + last->count : 0;

		if (last && z[i].start <= last_end) {
			u64 end = (u64)z[i].start + z[i].count;

			if (end > last_end)
				last->count = (u32)(end - last->start);
			continue;
		}
		z[out++] = z[i];
	}
	return out;
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
	return 0;
}

void ext4_release_system_zone(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);

	kvfree(sbi->s_system_zone);
	sbi->s_system_zone = NULL;
	sbi->s_system_zone_count = 0;
}

/* Does [start, start + count) meet any metadata run? */
bool ext4_in_system_zone(struct super_block *sb, u32 start, u32 count)
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
	return lo < sbi->s_system_zone_count && z[lo].start < end;
}
