/*
 * Where a page-cache page of a file lives on disk: the blocks it holds (one to four,
 * by block size), looked up as runs through the block map.
 *
 * A page is "simple" when its mapped blocks are one run that starts at the beginning of
 * the page and everything after it is a hole or past the end of the file: it is then read
 * or written by one contiguous piece of a bio. Anything else (a hole before data, data
 * that jumps around on disk) is done run by run.
 */
#include "data.h"
#include <cgwb/string.h>

int ext2_map_page(struct inode *inode, struct page *page, loff_t isize, struct ext2_page_map *m)
{
	unsigned int bits = inode->i_blkbits, per_page = 1u << (PAGE_SHIFT - bits);
	sector_t first = (sector_t)page_index(page) << (PAGE_SHIFT - bits);
	unsigned int i = 0;

	memset(m, 0, sizeof(*m));
	m->blocks_per_page = per_page;
	while (i < per_page && ((loff_t)(first + i) << bits) < isize) {
		bool new;
		u32 bno;
		int n = ext2_get_blocks(inode, first + i, per_page - i, &bno, 0, &new);

		if (n < 0)
			return n;
		if (!n) {
			m->bno[i++] = 0;
			continue;
		}
		for (int j = 0; j < n; j++)
			m->bno[i++] = bno + (u32)j;
	}
	m->nr = i;
	ext2_page_map_finish(m);
	return 0;
}

void ext2_page_map_finish(struct ext2_page_map *m)
{
	unsigned int i;

	for (i = 0; i < m->nr && m->bno[i]; i++)
		if (i && m->bno[i] != m->bno[0] + i)
			break;
	m->prefix = i;
	m->simple = true;
	for (; i < m->nr; i++)
		if (m->bno[i])
			m->simple = false;
}

/* Contiguous mapped blocks from block i of the page (0 if block i is a hole). */
unsigned int ext2_page_run(const struct ext2_page_map *m, unsigned int i)
{
	unsigned int n = 0;

	while (i + n < m->nr && m->bno[i + n] && m->bno[i + n] == m->bno[i] + n)
		n++;
	return n;
}

/*
 * Bytes of page at or past the end of file read as zeros whatever the disk holds there,
 * except [from, to), which the caller is about to overwrite (a whole-page write past the
 * end of file zeroes nothing: the memset cost as much as the copy).
 */
void ext2_zero_post_eof_outside(struct page *page, loff_t isize, unsigned int from, unsigned int to)
{
	pgoff_t eof_index = (pgoff_t)(isize >> PAGE_SHIFT), index = page_index(page);
	unsigned int z;
	char *p = page_address(page);

	if (index < eof_index)
		return;
	z = index > eof_index ? 0 : (unsigned int)(isize & (PAGE_SIZE - 1));
	if (z < from)
		memset(p + z, 0, from - z);
	z = max(z, to);
	if (z < PAGE_SIZE)
		memset(p + z, 0, PAGE_SIZE - z);
}

void ext2_zero_post_eof(struct page *page, loff_t isize)
{
	ext2_zero_post_eof_outside(page, isize, 0, 0);
}

/* Synchronous read of n blocks from bno into page at block slot i (run-by-run reads). */
int ext2_read_run_sync(struct inode *inode, struct page *page, unsigned int i, u32 bno, unsigned int n)
{
	unsigned int bits = inode->i_blkbits;
	struct bio *bio = bio_alloc(inode->i_sb->s_bdev, 1, REQ_OP_READ, GFP_NOFS);
	int err;

	if (!bio)
		return -ENOMEM;
	bio->bi_sector = (sector_t)bno << (bits - SECTOR_SHIFT);
	bio_add_page(bio, page, n << bits, i << bits);
	err = submit_bio_wait(bio);
	bio_put(bio);
	if (err)
		ext2_msg(inode->i_sb, KERN_ERR, "I/O error %d reading inode %lu block %u", err,
			 inode->i_ino, bno);
	return err;
}
