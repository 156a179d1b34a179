/*
 * Reading file pages. Readahead batches are turned into as few bios as the layout allows:
 * a page whose blocks continue the previous page's on disk joins its bio (up to
 * BIO_MAX_VECS pages). Holes and the bytes past the end of file read as zeros without IO.
 * A page with an irregular layout is read run by run, synchronously (rare: sparse files
 * with blocks smaller than a page).
 */
#include "data.h"
#include <cgwb/string.h>

struct ext2_read_ctx {
	struct inode *inode;
	struct bio *bio;
	sector_t next; /* the sector a page must start at to join bio */
	bool open;     /* bio's last page was whole: the next may follow */
	unsigned int pages_left;
};

static void ext2_end_read(struct bio *bio)
{
	for (unsigned int i = 0; i < bio->bi_vcnt; i++) {
		struct page *page = bio->bi_io_vec[i].bv_page;

		if (!bio->bi_status) {
			ext2_zero_post_eof(page, page->mapping->host->i_size);
			SetPageUptodate(page);
		} else {
			ClearPageUptodate(page);
			SetPageError(page);
		}
		unlock_page(page);
	}
	if (bio->bi_status)
		printk(KERN_ERR "EXT2-fs: I/O error %d reading sectors %llu+%u\n", bio->bi_status,
		       (unsigned long long)bio->bi_sector, bio->bi_size >> SECTOR_SHIFT);
	bio_put(bio);
}

static void ext2_submit_read(struct ext2_read_ctx *ctx)
{
	if (ctx->bio)
		submit_bio(ctx->bio);
	ctx->bio = NULL;
	ctx->open = false;
}

/* Add the first len bytes of page (at sector) to the current bio or a new one. */
static int ext2_read_add(struct ext2_read_ctx *ctx, struct page *page, sector_t sector,
			 unsigned int len)
{
	if (!ctx->bio || !ctx->open || ctx->next != sector ||
	    bio_add_page(ctx->bio, page, len, 0) != len) {
		ext2_submit_read(ctx);
		ctx->bio = bio_alloc(ctx->inode->i_sb->s_bdev,
				     (unsigned short)min(ctx->pages_left, (unsigned int)BIO_MAX_VECS),
				     REQ_OP_READ, GFP_NOFS);
		if (!ctx->bio)
			return -ENOMEM;
		ctx->bio->bi_sector = sector;
		ctx->bio->bi_end_io = ext2_end_read;
		bio_add_page(ctx->bio, page, len, 0);
	}
	ctx->next = sector + (len >> SECTOR_SHIFT);
	ctx->open = len == PAGE_SIZE;
	return 0;
}

/* An irregular page: each run read and waited for, holes zeroed. The caller marks it uptodate. */
static int ext2_read_page_runs(struct inode *inode, struct page *page, const struct ext2_page_map *m)
{
	int err = 0;

	memset(page_address(page), 0, PAGE_SIZE);
	for (unsigned int i = 0; i < m->nr && !err;) {
		unsigned int n = ext2_page_run(m, i);
		if (!n) {
			i++;
			continue;
		}
		err = ext2_read_run_sync(inode, page, i, m->bno[i], n);
		i += n;
	}
	if (!err)
		ext2_zero_post_eof(page, inode->i_size);
	return err;
}

/* Start the read of one locked page; it is unlocked at the end of its IO (or here). */
static int ext2_read_one(struct ext2_read_ctx *ctx, struct page *page)
{
	struct inode *inode = ctx->inode;
	struct ext2_page_map m;
	int err = ext2_map_page(inode, page, inode->i_size, &m);

	if (!err && !m.prefix && m.simple) {
		memset(page_address(page), 0, PAGE_SIZE); /* a hole, or past the end */
		SetPageUptodate(page);
	} else if (!err && m.simple) {
		unsigned int len = m.prefix << inode->i_blkbits;
		if (len < PAGE_SIZE)
			memset((char *)page_address(page) + len, 0, PAGE_SIZE - len);
		err = ext2_read_add(ctx, page, ext2_block_sector(inode, m.bno[0]), len);
		if (!err)
			return 0; /* unlocked by ext2_end_read */
	} else if (!err) {
		ext2_submit_read(ctx); /* keep the IO in file order */
		err = ext2_read_page_runs(inode, page, &m);
		if (!err)
			SetPageUptodate(page);
	}
	if (err)
		SetPageError(page);
	unlock_page(page);
	return err;
}

/*
 * A large folio that is not uptodate (a write into it failed before its copy): each page
 * read run by run, synchronously, and the folio uptodate once all are. Folio locked;
 * unlocked here.
 */
static int ext2_read_folio_sync(struct inode *inode, struct folio *folio)
{
	int err = 0;

	for (unsigned long p = 0; !err && p < folio_nr_pages(folio); p++) {
		struct page *page = folio_page(folio, p);
		struct ext2_page_map m;

		err = ext2_map_page(inode, page, inode->i_size, &m);
		if (!err)
			err = ext2_read_page_runs(inode, page, &m);
	}
	if (!err)
		folio_set_uptodate(folio);
	else
		folio_set_error(folio);
	folio_unlock(folio);
	return err;
}

int ext2_readpage(struct file *file, struct page *page)
{
	struct folio *folio = page_folio(page);
	struct ext2_read_ctx ctx = { .inode = folio->mapping->host, .pages_left = 1 };
	int err;

	(void)file;
	if (folio_test_large(folio))
		return ext2_read_folio_sync(ctx.inode, folio);
	err = ext2_read_one(&ctx, page);
	ext2_submit_read(&ctx);
	return err;
}

void ext2_readahead(struct readahead_control *ractl)
{
	struct ext2_read_ctx ctx = { .inode = ractl->mapping->host };

	/*
	 * No plug: the bios are as large as the layout allows already, and mapping a page may
	 * read an indirect block, which would wait forever behind our own plugged bios.
	 */
	for (unsigned int i = 0; i < ractl->nr_pages; i++) {
		ctx.pages_left = ractl->nr_pages - i;
		ext2_read_one(&ctx, ractl->pages[i]); /* a failed page is retried by the reader */
	}
	ext2_submit_read(&ctx);
}
