/*
 * Reading file pages. Readahead batches are turned into as few bios as the layout allows:
 * a page whose blocks continue the previous page's on disk joins its bio (up to
 * BIO_MAX_VECS pages). Holes and the bytes past the end of file read as zeros without IO.
 * A page with an irregular layout is read run by run, synchronously (rare: sparse files
 * with blocks smaller than a page).
 *
 * A large folio from readahead goes into one bio whole when its pages are whole runs
 * of blocks, each continuing the last on disk (its last page may stop short: the end of
 * file, or a hole after it); one bio then completes the folio, and unlocks it once. Any
 * other folio (a hole inside it, a pointer block between its blocks) is read page by
 * page, synchronously.
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

/* Each folio ends with its last page: a folio's pages are all in one bio, in order. */
static void ext2_end_read(struct bio *bio)
{
	for (unsigned int i = 0; i < bio->bi_vcnt; i++) {
		struct page *page = bio->bi_io_vec[i].bv_page;
		struct folio *folio = page_folio(page);

		if (!bio->bi_status)
			ext2_zero_post_eof(page, folio->mapping->host->i_size);
		if (page != folio_page(folio, folio_nr_pages(folio) - 1))
			continue;
		if (!bio->bi_status) {
			folio_set_uptodate(folio);
		} else {
			folio_clear_uptodate(folio);
			folio_set_error(folio);
		}
		folio_unlock(folio);
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

/* A new bio at sector for at least nr pages, the last one sent. */
static int ext2_read_new_bio(struct ext2_read_ctx *ctx, sector_t sector, unsigned int nr)
{
	ext2_submit_read(ctx);
	ctx->bio =
		bio_alloc(ctx->inode->i_sb->s_bdev,
			  (unsigned short)min(max(ctx->pages_left, nr), (unsigned int)BIO_MAX_VECS),
			  REQ_OP_READ, GFP_NOFS);
	if (!ctx->bio)
		return -ENOMEM;
	ctx->bio->bi_sector = sector;
	ctx->bio->bi_end_io = ext2_end_read;
	return 0;
}

/* Whether nr pages starting at sector can join the current bio. */
static bool ext2_read_joins(const struct ext2_read_ctx *ctx, sector_t sector, unsigned int nr)
{
	return ctx->bio && ctx->open && ctx->next == sector &&
	       ctx->bio->bi_vcnt + nr <= ctx->bio->bi_max_vecs;
}

/* Add the first len bytes of page (at sector) to the current bio or a new one. */
static int ext2_read_add(struct ext2_read_ctx *ctx, struct page *page, sector_t sector,
			 unsigned int len)
{
	if (!ext2_read_joins(ctx, sector, 1)) {
		int err = ext2_read_new_bio(ctx, sector, 1);

		if (err)
			return err;
	}
	BUG_ON(bio_add_page(ctx->bio, page, len, 0) != len);
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

/*
 * The bytes of each page of folio to read, if the folio is one run of whole pages on disk
 * (the last page may stop short); 0 if it is not, or an error. *sector: where it starts.
 */
static int ext2_folio_run(struct inode *inode, struct folio *folio, unsigned int *lens,
			  sector_t *sector)
{
	const unsigned long nr = folio_nr_pages(folio);
	const sector_t per_page = PAGE_SIZE >> SECTOR_SHIFT;

	for (unsigned long p = 0; p < nr; p++) {
		struct ext2_page_map m;
		int err = ext2_map_page(inode, folio_page(folio, p), inode->i_size, &m);

		if (err)
			return err;
		lens[p] = m.prefix << inode->i_blkbits;
		if (!m.simple || !lens[p] || (lens[p] < PAGE_SIZE && p != nr - 1))
			return 0;
		if (!p)
			*sector = ext2_block_sector(inode, m.bno[0]);
		else if (ext2_block_sector(inode, m.bno[0]) != *sector + p * per_page)
			return 0;
	}
	return 1;
}

/* Start the read of a locked large folio; it is unlocked at the end of its IO (or here). */
static int ext2_read_large(struct ext2_read_ctx *ctx, struct folio *folio)
{
	const unsigned int nr = (unsigned int)folio_nr_pages(folio);
	unsigned int lens[1UL << MAX_PAGECACHE_ORDER];
	sector_t sector = 0;
	int run = ext2_folio_run(ctx->inode, folio, lens, &sector);

	if (run <= 0) {
		ext2_submit_read(ctx); /* keep the IO in file order */
		if (!run)
			return ext2_read_folio_sync(ctx->inode, folio);
		folio_set_error(folio);
		folio_unlock(folio);
		return run;
	}
	if (!ext2_read_joins(ctx, sector, nr)) {
		int err = ext2_read_new_bio(ctx, sector, nr);

		if (err) {
			folio_set_error(folio);
			folio_unlock(folio);
			return err;
		}
	}
	for (unsigned int p = 0; p < nr; p++) {
		struct page *page = folio_page(folio, p);

		if (lens[p] < PAGE_SIZE)
			memset((char *)page_address(page) + lens[p], 0, PAGE_SIZE - lens[p]);
		BUG_ON(bio_add_page(ctx->bio, page, lens[p], 0) != lens[p]);
	}
	ctx->next = sector + (((sector_t)(nr - 1) << (PAGE_SHIFT - SECTOR_SHIFT)) +
			      (lens[nr - 1] >> SECTOR_SHIFT));
	ctx->open = lens[nr - 1] == PAGE_SIZE;
	return 0; /* unlocked by ext2_end_read */
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
	struct ext2_read_ctx ctx = { .inode = ractl->mapping->host, .pages_left = ractl->nr_pages };

	/*
	 * No plug: the bios are as large as the layout allows already, and mapping a page may
	 * read an indirect block, which would wait forever behind our own plugged bios.
	 * A failed folio is retried by the reader.
	 */
	for (unsigned int i = 0; i < ractl->nr_folios; i++) {
		struct folio *folio = ractl->folios[i];

		if (folio_test_large(folio))
			ext2_read_large(&ctx, folio);
		else
			ext2_read_one(&ctx, &folio->page);
		ctx.pages_left -= (unsigned int)folio_nr_pages(folio);
	}
	ext2_submit_read(&ctx);
}
