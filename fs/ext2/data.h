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

#define EXT2_MAX_BLOCKS_PER_PAGE (PAGE_SIZE / EXT2_MIN_BLOCK_SIZE)

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

static inline sector_t ext2_block_sector(struct inode *inode, u32 block)
{
	return (sector_t)block << (inode->i_blkbits - SECTOR_SHIFT);
}

#endif
