/*
 * Writeback of file pages: ->writepages walks the dirty pages (write_cache_pages, which
 * locks each one and clears its dirty bit for IO) and packs pages whose blocks follow each
 * other on disk into one bio, up to BIO_MAX_VECS pages, so a sequentially written file
 * goes out in IOs of up to a MiB.
 *
 * The cgroup writeback hooks are called the way Linux's mpage code calls them: each bio is
 * associated with the writeback's cgroup (wbc_init_bio, after its device is set and before
 * it is submitted) and every page added is accounted to its owner for foreign-inode
 * detection (wbc_account_cgroup_owner with the bytes of the page in the bio).
 *
 * Blocks were allocated when the data was written (write_begin), so nothing is allocated
 * here: a block that is a hole in a dirty page was never written and stays a hole.
 */
#include "data.h"
#include <cgwb/string.h>

struct ext2_wb_ctx {
	struct inode *inode;
	struct writeback_control *wbc;
	struct bio *bio;
	sector_t next; /* where a page must start to join bio */
	bool open;     /* bio's last page was whole */
	unsigned int opf;
};

static unsigned int ext2_wb_opf(const struct writeback_control *wbc)
{
	unsigned int opf = REQ_OP_WRITE;

	if (wbc->sync_mode == WB_SYNC_ALL)
		opf |= REQ_SYNC;
	else if (wbc->for_background || wbc->for_kupdate)
		opf |= REQ_BACKGROUND;
	return opf;
}

static void ext2_end_write(struct bio *bio)
{
	for (unsigned int i = 0; i < bio->bi_vcnt; i++) {
		struct page *page = bio->bi_io_vec[i].bv_page;

		if (bio->bi_status) {
			SetPageError(page);
			mapping_set_error(page->mapping, bio->bi_status);
		}
		end_page_writeback(page);
	}
	if (bio->bi_status)
		printk(KERN_ERR "EXT2-fs: I/O error %d writing sectors %llu+%u\n", bio->bi_status,
		       (unsigned long long)bio->bi_sector, bio->bi_size >> SECTOR_SHIFT);
	bio_put(bio);
}

static void ext2_submit_write(struct ext2_wb_ctx *ctx)
{
	if (ctx->bio)
		submit_bio(ctx->bio);
	ctx->bio = NULL;
	ctx->open = false;
}

static struct bio *ext2_wb_bio(struct ext2_wb_ctx *ctx, sector_t sector, unsigned short vecs)
{
	struct bio *bio = bio_alloc(ctx->inode->i_sb->s_bdev, vecs, ctx->opf, GFP_NOFS);

	if (!bio)
		return NULL;
	bio->bi_sector = sector;
	bio->bi_end_io = ext2_end_write;
	wbc_init_bio(ctx->wbc, bio);
	return bio;
}

/* A simple page: its first len bytes join the current bio, or start a new one. */
static int ext2_wb_add(struct ext2_wb_ctx *ctx, struct page *page, sector_t sector, unsigned int len)
{
	if (!ctx->bio || !ctx->open || ctx->next != sector ||
	    bio_add_page(ctx->bio, page, len, 0) != len) {
		ext2_submit_write(ctx);
		ctx->bio = ext2_wb_bio(ctx, sector, BIO_MAX_VECS);
		if (!ctx->bio)
			return -ENOMEM;
		bio_add_page(ctx->bio, page, len, 0);
	}
	wbc_account_cgroup_owner(ctx->wbc, page, len);
	ctx->next = sector + (len >> SECTOR_SHIFT);
	ctx->open = len == PAGE_SIZE;
	return 0;
}

/*
 * An irregular page: a bio per run of blocks, the later ones chained to the first, whose
 * completion ends the page's writeback once all of them are done. Page locked; it is set
 * under writeback and unlocked here.
 */
static int ext2_wb_runs(struct ext2_wb_ctx *ctx, struct page *page, const struct ext2_page_map *m)
{
	unsigned int bits = ctx->inode->i_blkbits;
	struct bio *bios[EXT2_MAX_BLOCKS_PER_PAGE];
	unsigned int nbios = 0;

	ext2_submit_write(ctx);
	for (unsigned int i = 0; i < m->nr;) {
		unsigned int n = ext2_page_run(m, i);
		if (!n) {
			i++;
			continue;
		}
		bios[nbios] = ext2_wb_bio(ctx, ext2_block_sector(ctx->inode, m->bno[i]), 1);
		if (!bios[nbios]) {
			while (nbios--)
				bio_put(bios[nbios]);
			return -ENOMEM;
		}
		bio_add_page(bios[nbios], page, n << bits, i << bits);
		wbc_account_cgroup_owner(ctx->wbc, page, n << bits);
		if (nbios) {
			bios[nbios]->bi_end_io = NULL; /* the first one's completion does it all */
			bio_chain(bios[nbios], bios[0]);
		}
		nbios++;
		i += n;
	}
	set_page_writeback(page);
	unlock_page(page);
	for (unsigned int i = nbios; i-- > 0;)
		submit_bio(bios[i]); /* the first last: it must not complete before its children exist */
	return 0;
}

static int ext2_writepage_cb(struct page *page, struct writeback_control *wbc, void *data)
{
	struct ext2_wb_ctx *ctx = data;
	struct inode *inode = ctx->inode;
	loff_t isize = inode->i_size;
	struct ext2_page_map m;
	int err;

	if ((loff_t)page->index << PAGE_SHIFT >= isize) {
		unlock_page(page); /* wholly past the end: truncate is removing it */
		return 0;
	}
	ext2_zero_post_eof(page, isize);
	err = ext2_map_page(inode, page, isize, &m);
	if (err) {
		mapping_set_error(page->mapping, err);
		unlock_page(page);
		return err;
	}
	if (!m.prefix && m.simple) {
		unlock_page(page); /* nothing mapped: the page holds only holes */
		return 0;
	}
	if (!m.simple)
		err = ext2_wb_runs(ctx, page, &m);
	else
		err = ext2_wb_add(ctx, page, ext2_block_sector(inode, m.bno[0]),
				  m.prefix << inode->i_blkbits);
	if (err == -ENOMEM) {
		redirty_page_for_writepage(wbc, page);
		unlock_page(page);
		return err;
	}
	if (m.simple) {
		set_page_writeback(page);
		unlock_page(page);
	}
	return err;
}

int ext2_writepages(struct address_space *mapping, struct writeback_control *wbc)
{
	struct ext2_wb_ctx ctx = { .inode = mapping->host, .wbc = wbc, .opf = ext2_wb_opf(wbc) };
	int err;

	/* no plug of our own: see ext2_readahead */
	err = write_cache_pages(mapping, wbc, ext2_writepage_cb, &ctx);
	ext2_submit_write(&ctx);
	return err;
}

/* One page (reclaim, or anyone without ->writepages): a bio of its own. */
int ext2_writepage(struct page *page, struct writeback_control *wbc)
{
	struct ext2_wb_ctx ctx = { .inode = page->mapping->host, .wbc = wbc, .opf = ext2_wb_opf(wbc) };
	int err = ext2_writepage_cb(page, wbc, &ctx);

	ext2_submit_write(&ctx);
	return err;
}
