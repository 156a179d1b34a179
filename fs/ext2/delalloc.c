/*
 * Delayed allocation, the write side (Linux's ext4_da_write_begin, ext4_da_reserve_space,
 * ext4_da_release_space, ext4_da_invalidatepage): a buffered write into a hole of an
 * extent-mapped file on a type ext4 mount (unless mounted nodelalloc) allocates nothing.
 * It reserves one block per block it makes dirty, and the page remembers which of its
 * blocks are delayed; the blocks are allocated when the page is written back
 * (writeback.c), for the whole run of dirty pages at once, as unwritten extents converted
 * after the IO (io_end.c).
 *
 * Why: blocks allocated at write time put the inode on the running transaction, and a
 * data=ordered commit then writes that data first, whichever cgroup it belongs to and
 * however throttled it is; every fsync on the filesystem would wait for it. Allocated at
 * writeback as unwritten extents, no commit ever depends on data IO. Allocation at
 * writeback also sees the whole run of dirty pages, so a file written in order gets long
 * extents.
 *
 * Policy: the reservation (s_dirtyclusters_counter, and the inode's i_reserved_data_blocks
 * under its i_block_reservation_lock) is refused with -ENOSPC when the free blocks less
 * those already reserved would fall below a slack kept for the extent tree blocks
 * writeback and conversion may need (2 % of the filesystem, at most 4096 blocks, as
 * Linux's s_resv_clusters): write(2) reports a full disk, writeback does not meet it.
 *
 * Both totals are per-CPU counters, as Linux's ext4_has_free_clusters(): every page a
 * write dirties asks, so the question must not lock or walk the groups. Their cheap reads
 * answer while the disk is far from full; within a watermark of the limit (each counter
 * off by less than a batch per CPU, four times over) the exact sums decide, so near a
 * full disk the answer is what it would be with one lock. Two writers may still pass the
 * check at the same instant and both take the last blocks above the slack: the slack is
 * what they eat into, as in Linux, and it is thousands of blocks. A delayed block's reservation goes back when the
 * block is mapped at writeback, or when its page is truncated (invalidatepage). statfs
 * counts reserved blocks as used, as Linux does. The pages after the one whose writeback
 * allocated their run keep their reservations until their own turn (their bits change
 * under their own locks): for that while, the blocks count twice, on the safe side.
 *
 * The page's state: bits 0..3 of page->private are its delayed block slots; PG_private
 * (with a page reference, as buffer heads hold one) is set while any is, and also while
 * the page was written into unwritten extents whose conversion is pending: reclaim asks
 * releasepage, which keeps such a page, since the disk still reads zeros there and a
 * re-read would lose the data. All of it changes under the page lock.
 */
#include "data.h"

/* Blocks writeback and conversion may need for the extent tree: Linux's s_resv_clusters. */
static u64 ext2_da_slack(struct super_block *sb)
{
	return min((u64)EXT2_SB(sb)->s_blocks_count / 50, (u64)4096);
}

/* How far from the limit the counters' reads may be trusted: EXT4_FREECLUSTERS_WATERMARK. */
static s64 ext2_da_watermark(void)
{
	return 4 * (s64)percpu_counter_batch * nr_cpu_ids;
}

bool ext2_has_free_blocks(struct super_block *sb, unsigned long n)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	s64 need = (s64)n + (s64)ext2_da_slack(sb);
	s64 free = percpu_counter_read_positive(&sbi->s_freeblocks_counter);
	s64 dirty = percpu_counter_read_positive(&sbi->s_dirtyclusters_counter);

	if (free - (need + dirty) < ext2_da_watermark()) {
		free = percpu_counter_sum_positive(&sbi->s_freeblocks_counter);
		dirty = percpu_counter_sum_positive(&sbi->s_dirtyclusters_counter);
	}
	return free >= need + dirty;
}

static int ext2_da_reserve_space(struct inode *inode, unsigned int n)
{
	struct ext2_sb_info *sbi = EXT2_SB(inode->i_sb);
	struct ext2_inode_info *ei = EXT2_I(inode);

	if (!ext2_has_free_blocks(inode->i_sb, n))
		return -ENOSPC;
	percpu_counter_add(&sbi->s_dirtyclusters_counter, n);
	spin_lock(&ei->i_block_reservation_lock);
	ei->i_reserved_data_blocks += n;
	spin_unlock(&ei->i_block_reservation_lock);
	return 0;
}

static unsigned int ext2_da_count(unsigned long slots)
{
	unsigned int n = 0;

	for (; slots; slots &= slots - 1)
		n++;
	return n;
}

static void ext2_da_release_space(struct inode *inode, unsigned int n)
{
	struct ext2_sb_info *sbi = EXT2_SB(inode->i_sb);
	struct ext2_inode_info *ei = EXT2_I(inode);

	spin_lock(&ei->i_block_reservation_lock);
	if (WARN_ON_ONCE(n > ei->i_reserved_data_blocks))
		n = ei->i_reserved_data_blocks;
	ei->i_reserved_data_blocks -= n;
	spin_unlock(&ei->i_block_reservation_lock);
	percpu_counter_sub(&sbi->s_dirtyclusters_counter, n);
}

static void ext2_da_attach(struct page *page)
{
	if (!PagePrivate(page)) {
		get_page(page);
		page->private = 0;
		SetPagePrivate(page);
	}
}

static void ext2_da_detach(struct page *page)
{
	if (PagePrivate(page)) {
		page->private = 0;
		ClearPagePrivate(page);
		put_page(page);
	}
}

/*
 * Slots [i, last] of the page are to be written. A slot already delayed or mapped to a
 * written block needs nothing; any other (a hole, or an unwritten extent: both read as
 * zeros) is reserved and marked delayed, all of them or none. m holds the page's map when
 * mapped; otherwise (an uptodate page) the slots are looked up. Slots past the end of
 * file have no blocks (truncate frees them, writeback allocates none there).
 */
int ext2_da_prepare_blocks(struct inode *inode, struct page *page, unsigned int i,
			   unsigned int last, const struct ext2_page_map *m, bool mapped)
{
	unsigned int bits = inode->i_blkbits;
	sector_t first = (sector_t)page->index << (PAGE_SHIFT - bits);
	unsigned long want = 0, delayed = ext2_da_delayed(page);
	int err;

	for (; i <= last; i++) {
		bool new;
		u32 bno = 0;

		if (delayed & (1UL << i))
			continue;
		if (mapped) {
			bno = m->bno[i];
		} else if (((loff_t)(first + i) << bits) < inode->i_size) {
			err = ext2_get_blocks(inode, first + i, 1, &bno, 0, &new);
			if (err < 0)
				return err;
			if (!err)
				bno = 0;
		}
		if (!bno)
			want |= 1UL << i;
	}
	if (!want)
		return 0;
	err = ext2_da_reserve_space(inode, ext2_da_count(want));
	if (err)
		return err;
	ext2_da_attach(page);
	page->private |= want;
	return 0;
}

void ext2_da_release_slots(struct inode *inode, struct page *page, unsigned long slots)
{
	slots &= ext2_da_delayed(page);
	if (!slots)
		return;
	ext2_da_release_space(inode, ext2_da_count(slots));
	page->private &= ~slots;
	if (!page->private)
		ext2_da_detach(page);
}

void ext2_da_protect_page(struct page *page, u64 seq)
{
	ext2_da_attach(page);
	page->private = (page->private & EXT2_DA_SLOTS) | (unsigned long)(seq << EXT2_DA_IO_SHIFT);
}

/* Truncate: the delayed slots wholly inside [offset, offset + length) lose their blocks. */
void ext2_da_invalidatepage(struct page *page, size_t offset, size_t length)
{
	struct inode *inode = page->mapping->host;
	unsigned int bits = inode->i_blkbits;
	unsigned long slots = 0;

	for (unsigned int i = 0; i < (PAGE_SIZE >> bits); i++) {
		size_t start = (size_t)i << bits, end = start + (1u << bits);

		if (start >= offset && end <= offset + length)
			slots |= 1UL << i;
	}
	ext2_da_release_slots(inode, page, slots);
	if (!offset && length == PAGE_SIZE)
		ext2_da_detach(page);
}

/* Reclaim of a clean page: kept while the IO that wrote it waits for its conversion. */
bool ext2_da_releasepage(struct page *page, gfp_t gfp)
{
	(void)gfp;
	if (ext2_da_delayed(page) ||
	    ext2_da_io_seq(page) > ext2_unwritten_done(&EXT2_I(page->mapping->host)->i_unwritten))
		return false;
	ext2_da_detach(page);
	return true;
}
