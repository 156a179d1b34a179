/*
 * The data path of regular files (pagemap.c, readpage.c, writeback.c, aops.c): page-cache
 * pages read and written with bios straight to their blocks, no buffer heads.
 */
#ifndef CGWB_FS_EXT2_DATA_H
#define CGWB_FS_EXT2_DATA_H

#include "ext2.h"
#include <cgwb/bio.h>
#include <cgwb/blkdev.h>
#include <cgwb/pagemap.h>
#include <cgwb/writeback.h>
#include <cgwb/errno.h>
#include <cgwb/workqueue.h>

#define EXT2_MAX_BLOCKS_PER_PAGE (PAGE_SIZE / EXT2_MIN_BLOCK_SIZE)
/* A folio's blocks: its pages' in order (a large folio is at most MAX_PAGECACHE_ORDER). */
#define EXT2_MAX_FOLIO_BLOCKS (EXT2_MAX_BLOCKS_PER_PAGE << MAX_PAGECACHE_ORDER)

struct ext2_page_map {
	unsigned int blocks_per_page;
	unsigned int nr;                   /* blocks of the page before the end of file */
	unsigned int prefix;               /* length of the contiguous mapped run at the start */
	bool simple;                       /* nothing mapped after that run */
	u32 bno[EXT2_MAX_BLOCKS_PER_PAGE]; /* disk block of each, 0 for a hole */
};

int ext2_map_page(struct inode *inode, struct page *page, loff_t isize, struct ext2_page_map *m);
unsigned int ext2_page_run(const struct ext2_page_map *m, unsigned int i);
void ext2_zero_post_eof(struct page *page, loff_t isize);
/* The same, leaving [from, to) alone: a write is about to fill it. */
void ext2_zero_post_eof_outside(struct page *page, loff_t isize, unsigned int from, unsigned int to);
int ext2_read_run_sync(struct inode *inode, struct page *page, unsigned int i, u32 bno,
		       unsigned int n);

/* The map's prefix and simple (above) from its bno[] and nr. */
void ext2_page_map_finish(struct ext2_page_map *m);

/*
 * delalloc.c: a page's delayed blocks are bits of its page->private (slot i: bit i; each
 * page of a large folio has its own), with PG_private set on the folio and a reference
 * on it while any page has one, or while a page was written into unwritten extents not
 * yet converted (reclaim must keep it: the disk reads zeros there): the bits above the
 * slots then hold the number of the inode's IO that converts them.
 */
#define EXT2_DA_SLOTS ((1UL << EXT2_MAX_BLOCKS_PER_PAGE) - 1)
#define EXT2_DA_IO_SHIFT EXT2_MAX_BLOCKS_PER_PAGE
static inline unsigned long ext2_da_delayed(const struct page *page)
{
	return PagePrivate(page) ? page->private & EXT2_DA_SLOTS : 0;
}
static inline u64 ext2_da_io_seq(const struct page *page)
{
	return PagePrivate(page) ? page->private >> EXT2_DA_IO_SHIFT : 0;
}
/*
 * Blocks [b, end) of a locked folio (numbered from its first) are about to be written:
 * the missing ones reserved and marked delayed, all or none. m, for a one-page folio
 * only, is its map already read (NULL: looked up).
 */
int ext2_da_prepare_blocks(struct inode *inode, struct folio *folio, unsigned int b,
			   unsigned int end, const struct ext2_page_map *m);
/* Slots of a locked page got their blocks (or are gone): bits and reservations dropped. */
void ext2_da_release_slots(struct inode *inode, struct page *page, unsigned long slots);
/* All the delayed slots of a locked folio dropped (its data is lost: a failed writeback). */
void ext2_da_release_folio(struct inode *inode, struct folio *folio);
/* Has any page of the folio a delayed block? */
bool ext2_da_folio_delayed(struct folio *folio);
/* A locked page was written into unwritten extents by IO seq: reclaim keeps it until converted. */
void ext2_da_protect_page(struct page *page, u64 seq);
void ext2_da_invalidatepage(struct page *head, size_t offset, size_t length);
bool ext2_da_releasepage(struct page *head, gfp_t gfp);

/*
 * io_end.c: the unwritten ranges one writeback wrote, converted once every bio carrying
 * them has completed (Linux's ext4_io_end_t). The writeback holds one reference, each
 * bio submitted after the io_end exists another.
 */
#define EXT2_IO_END_RANGES 16
struct ext2_io_pending {
	struct list_head node; /* on an ext2_unwritten's list */
	u64 seq;               /* its number there */
};
struct ext2_io_end {
	struct inode *inode; /* held until the conversion is done, or evicted after it */
	bool holds_inode;    /* a reference (none for an inode being evicted) */
	int refs;            /* atomic */
	int err;             /* the first IO error: no conversion */
	unsigned int nr;
	struct ext2_io_pending in_inode, in_sb;
	struct {
		u32 lblk, len;
	} range[EXT2_IO_END_RANGES];
	struct work_struct work;
};
/* A new io_end for inode (never fails). */
struct ext2_io_end *ext2_io_end_alloc(struct inode *inode);
/* [lblk, +len) was mapped unwritten and goes out with this io_end: false if it is full. */
bool ext2_io_end_add(struct ext2_io_end *io, u32 lblk, u32 len);
void ext2_io_end_get(struct ext2_io_end *io);
/* A reference dropped with the IO's status (any context): the last queues the conversion. */
void ext2_io_end_put(struct ext2_io_end *io, int err);

static inline sector_t ext2_block_sector(struct inode *inode, u32 block)
{
	return (sector_t)block << (inode->i_blkbits - SECTOR_SHIFT);
}

#endif
