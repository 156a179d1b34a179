/*
 * Unwritten extents made written, once the data written into them is on disk: Linux's
 * ext4_convert_unwritten_extents(), called from the IO completion's work (fs/ext2/io_end.c)
 * under a handle of its own.
 *
 * The problem: delayed allocation's writeback maps dirty pages to unwritten extents (they
 * read as zeros), so no commit has to wait for that data (data=ordered's promise holds:
 * a crash shows zeros, never what the blocks held before). Only once the IO has completed
 * may the extents say "written".
 *
 * Policy: the range converted is exactly what the IO wrote; an unwritten extent that
 * reaches beyond it is split (its other part stays unwritten), and a converted extent
 * joins a written neighbour in the same leaf that continues it on disk, so a file written
 * in order ends as few extents as if it had been allocated written. Written extents and
 * holes in the range (truncated meanwhile, or converted by an earlier IO of the same
 * blocks) are left alone.
 *
 * Races: truncate_mutex is held, so the tree does not change under us; truncate may have
 * removed the blocks before we run (a hole now: nothing to do).
 */
#include "ext4_extents.h"
#include <cgwb/errno.h>
#include <cgwb/string.h>

static bool ext_continues(const struct ext4_extent *a, const struct ext4_extent *b)
{
	return !ext_unwritten(a) && !ext_unwritten(b) && !a->ee_start_hi && !b->ee_start_hi &&
	       le32_to_cpu(a->ee_block) + ext_len(a) == le32_to_cpu(b->ee_block) &&
	       le32_to_cpu(a->ee_start_lo) + ext_len(a) == le32_to_cpu(b->ee_start_lo) &&
	       ext_len(a) + ext_len(b) <= EXT4_EXT_INIT_MAX_LEN;
}

/* Entry n of the leaf goes, the later ones move down (never the first: keys stay). */
static void ext_leaf_remove(struct ext4_extent_header *eh, unsigned int n)
{
	struct ext4_extent *e = ext_first(eh);
	unsigned int entries = le16_to_cpu(eh->eh_entries);

	BUG_ON(!n || n >= entries);
	memmove(&e[n], &e[n + 1], (entries - n - 1) * sizeof(*e));
	eh->eh_entries = cpu_to_le16((u16)(entries - 1));
}

/* Extent n, written now, joins its written neighbours in the leaf where they continue it. */
static void ext_merge_written(struct ext4_extent_header *eh, unsigned int n)
{
	struct ext4_extent *e = ext_first(eh);

	if (n + 1 < le16_to_cpu(eh->eh_entries) && ext_continues(&e[n], &e[n + 1])) {
		ext_set_len(&e[n], ext_len(&e[n]) + ext_len(&e[n + 1]), false);
		ext_leaf_remove(eh, n + 1);
	}
	if (n && ext_continues(&e[n - 1], &e[n])) {
		ext_set_len(&e[n - 1], ext_len(&e[n - 1]) + ext_len(&e[n]), false);
		ext_leaf_remove(eh, n);
	}
}

/*
 * One step at lblk (< end): the first block after what it handled, or -errno. An unwritten
 * extent [es, ee) meeting [lblk, end) keeps its part before lblk unwritten, its part in the
 * range becomes written, its part after end stays unwritten (new extents for the pieces
 * that are not the first, inserted in order: unwritten and written do not merge).
 */
static long ext_convert_step(struct inode *inode, u32 lblk, u32 end)
{
	struct ext4_ext_path path[EXT4_MAX_EXTENT_DEPTH + 1];
	int depth = ext4_find_extent(inode, lblk, path);
	struct ext4_extent_header *leaf;
	struct ext4_extent *ex;
	u32 es, len, pblk, e;
	unsigned int n;
	int err = 0;

	if (depth < 0)
		return depth;
	leaf = path[depth].hdr;
	n = ext4_ext_bisect(leaf, lblk);
	ex = n ? &ext_first(leaf)[n - 1] : NULL;
	if (!ex || lblk - le32_to_cpu(ex->ee_block) >= ext_len(ex)) {
		/* a hole: on to the next extent */
		u32 goal, hole = ext_hole(path, (unsigned int)depth, lblk, &goal);

		ext_path_release(path, (unsigned int)depth);
		return (long)min((u64)end, (u64)lblk + hole);
	}
	es = le32_to_cpu(ex->ee_block);
	len = ext_len(ex);
	pblk = le32_to_cpu(ex->ee_start_lo);
	e = (u32)min((u64)end, (u64)es + len);
	if (!ext_unwritten(ex)) {
		ext_path_release(path, (unsigned int)depth);
		return e;
	}
	if (lblk > es) {
		ext_set_len(ex, lblk - es, true);
	} else {
		ext_set_len(ex, e - es, false);
		ext_merge_written(leaf, n - 1);
	}
	ext_node_dirty(inode, &path[depth]);
	ext_path_release(path, (unsigned int)depth);
	if (lblk > es)
		err = ext4_ext_insert_extent(inode, lblk, pblk + (lblk - es), e - lblk, false);
	if (!err && e < es + len)
		err = ext4_ext_insert_extent(inode, e, pblk + (e - es), es + len - e, true);
	return err ? (long)err : (long)e;
}

/* [lblk, lblk + len) was written: its unwritten extents become written. 0 or -errno. */
int ext4_convert_unwritten_extents(struct inode *inode, u32 lblk, u32 len)
{
	struct ext2_inode_info *ei = EXT2_I(inode);
	u32 end = lblk + len;
	long next = lblk;

	mutex_lock(&ei->truncate_mutex);
	while (next >= 0 && (u32)next < end)
		next = ext_convert_step(inode, (u32)next, end);
	mutex_unlock(&ei->truncate_mutex);
	return next < 0 ? (int)next : 0;
}
