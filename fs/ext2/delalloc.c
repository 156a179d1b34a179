/*
 * Delayed allocation, the write side (Linux's ext4_da_write_begin, ext4_da_reserve_space,
 * ext4_da_release_space, ext4_da_invalidatepage): a buffered write into a hole of an
 * extent-mapped file on a type ext4 mount (unless mounted nodelalloc) allocates nothing.
 * It reserves one block per block it makes dirty, and the folio remembers which of its
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
 * The folio's state: bits 0..3 of each page's page->private are its delayed block slots
 * (a folio of 16 pages holds up to 64 blocks: each page keeps its own, as iomap keeps a
 * per-folio block bitmap); PG_private (with a reference on the folio, as buffer heads
 * hold one) is set while any is, and also while a page was written into unwritten
 * extents whose conversion is pending: reclaim asks releasepage, which keeps such a
 * folio, since the disk still reads zeros there and a re-read would lose the data. All
 * of it changes under the folio lock.
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

/*
 * The folio's state: PG_private and one reference on the folio, each page's slots in its
 * own page->private (a tail page's is free: the compound links live elsewhere).
 */
static void ext2_da_attach(struct folio *folio)
{
	if (!folio_test_private(folio)) {
		folio_get(folio);
		for (unsigned long p = 0; p < folio_nr_pages(folio); p++)
			folio_page(folio, p)->private = 0;
		folio_set_private(folio);
	}
}

static void ext2_da_detach(struct folio *folio)
{
	if (folio_test_private(folio)) {
		for (unsigned long p = 0; p < folio_nr_pages(folio); p++)
			folio_page(folio, p)->private = 0;
		folio_clear_private(folio);
		folio_put(folio);
	}
}

/* Detached once no page of it holds a slot or waits for a conversion. */
static void ext2_da_detach_if_idle(struct folio *folio)
{
	for (unsigned long p = 0; p < folio_nr_pages(folio); p++)
		if (folio_page(folio, p)->private)
			return;
	ext2_da_detach(folio);
}

/*
 * Does slot (block number block of the file) of page need a reservation? Not if it is
 * delayed already or mapped to a written block; a hole or an unwritten extent (both read
 * as zeros) does. Returns how many blocks from it share the answer (a run of written
 * ones, looked up at most left long), or an error. Slots past the end of file have no
 * blocks (truncate frees them, writeback allocates none there).
 */
static int ext2_da_slot_needs(struct inode *inode, struct page *page, unsigned int slot,
			      sector_t block, unsigned int left, bool *need)
{
	bool new;
	u32 bno;
	int n;

	*need = false;
	if (ext2_da_delayed(page) & (1UL << slot))
		return 1;
	*need = true;
	if (((loff_t)block << inode->i_blkbits) >= inode->i_size)
		return 1;
	n = ext2_get_blocks(inode, block, left, &bno, 0, &new);
	if (n <= 0)
		return n ? n : 1;
	*need = false;
	return n;
}

int ext2_da_prepare_blocks(struct inode *inode, struct folio *folio, unsigned int b,
			   unsigned int end, const struct ext2_page_map *m)
{
	unsigned int per_page = 1u << (PAGE_SHIFT - inode->i_blkbits), count = 0;
	sector_t first = (sector_t)folio->index * per_page;
	unsigned long want[1UL << MAX_PAGECACHE_ORDER] = { 0 };
	int err;

	BUG_ON(end > folio_nr_pages(folio) * per_page || (m && folio_test_large(folio)));
	while (b < end) {
		struct page *page = folio_page(folio, b / per_page);
		unsigned int slot = b % per_page;
		bool need;
		int n = 1;

		if (m) /* a one-page folio's map: what is on disk */
			need = !m->bno[slot] && !(ext2_da_delayed(page) & (1UL << slot));
		else
			n = ext2_da_slot_needs(inode, page, slot, first + b, end - b, &need);
		if (n < 0)
			return n;
		if (need) {
			want[b / per_page] |= 1UL << slot;
			count++;
		}
		b += (unsigned int)n;
	}
	if (!count)
		return 0;
	err = ext2_da_reserve_space(inode, count);
	if (err)
		return err;
	ext2_da_attach(folio);
	for (unsigned long p = 0; p < folio_nr_pages(folio); p++)
		folio_page(folio, p)->private |= want[p];
	return 0;
}

void ext2_da_release_slots(struct inode *inode, struct page *page, unsigned long slots)
{
	slots &= ext2_da_delayed(page);
	if (!slots)
		return;
	ext2_da_release_space(inode, ext2_da_count(slots));
	page->private &= ~slots;
	ext2_da_detach_if_idle(page_folio(page));
}

void ext2_da_release_folio(struct inode *inode, struct folio *folio)
{
	for (unsigned long p = 0; p < folio_nr_pages(folio); p++)
		ext2_da_release_slots(inode, folio_page(folio, p), EXT2_DA_SLOTS);
}

bool ext2_da_folio_delayed(struct folio *folio)
{
	for (unsigned long p = 0; folio_test_private(folio) && p < folio_nr_pages(folio); p++)
		if (ext2_da_delayed(folio_page(folio, p)))
			return true;
	return false;
}

void ext2_da_protect_page(struct page *page, u64 seq)
{
	ext2_da_attach(page_folio(page));
	page->private = (page->private & EXT2_DA_SLOTS) | (unsigned long)(seq << EXT2_DA_IO_SHIFT);
}

/* Truncate: the delayed slots wholly inside [offset, offset + length) lose their blocks. */
void ext2_da_invalidatepage(struct page *head, size_t offset, size_t length)
{
	struct folio *folio = page_folio(head);
	struct inode *inode = folio->mapping->host;
	unsigned int bits = inode->i_blkbits, per_page = 1u << (PAGE_SHIFT - bits);

	for (unsigned long p = 0; p < folio_nr_pages(folio); p++) {
		unsigned long slots = 0;

		for (unsigned int i = 0; i < per_page; i++) {
			size_t start = (p << PAGE_SHIFT) + ((size_t)i << bits);

			if (start >= offset && start + (1u << bits) <= offset + length)
				slots |= 1UL << i;
		}
		ext2_da_release_slots(inode, folio_page(folio, p), slots);
	}
	if (!offset && length == folio_size(folio))
		ext2_da_detach(folio);
}

/* Reclaim of a clean folio: kept while an IO that wrote it waits for its conversion. */
bool ext2_da_releasepage(struct page *head, gfp_t gfp)
{
	struct folio *folio = page_folio(head);
	u64 done = ext2_unwritten_done(&EXT2_I(folio->mapping->host)->i_unwritten);

	(void)gfp;
	for (unsigned long p = 0; p < folio_nr_pages(folio); p++) {
		struct page *page = folio_page(folio, p);

		if (ext2_da_delayed(page) || ext2_da_io_seq(page) > done)
			return false;
	}
	ext2_da_detach(folio);
	return true;
}
