/*
 * Writeback of file pages: ->writepages walks the dirty folios (write_cache_pages, which
 * locks each one and clears its dirty bit for IO) and packs folios whose blocks follow each
 * other on disk into one bio, up to BIO_MAX_VECS pages, so a sequentially written file
 * goes out in IOs of up to a MiB. A large folio goes whole into one bio when its blocks
 * are one run, a page per vector, else run by run in bios chained to the first; either
 * way its writeback ends once (ext2_end_write()).
 *
 * The cgroup writeback hooks are called the way Linux's mpage code calls them: each bio is
 * associated with the writeback's cgroup (wbc_init_bio, after its device is set and before
 * it is submitted) and every page added is accounted to its owner for foreign-inode
 * detection (wbc_account_cgroup_owner with the bytes of the page in the bio).
 *
 * Blocks were allocated when the data was written (write_begin), except delayed ones
 * (ext4's delayed allocation, delalloc.c): those are allocated here as unwritten extents,
 * for the page's run of delayed blocks and the dirty delayed pages after it at once
 * (ext2_da_lookahead: Linux's mpage_prepare_extent_to_map), so a file written in order
 * gets long extents. The pages after it find their blocks mapped and look no further
 * (looking ahead from every page costs a lookup per page per page, under the handle).
 * The ranges written into unwritten extents are collected in an io_end (io_end.c) that
 * every later bio references; when the last completes they are converted.
 *
 * The allocation needs a journal handle, taken before write_cache_pages locks any page (a
 * handle is always taken before a page lock). Nothing that waits for the group's IO may
 * happen under it, since a commit (some other group's fsync) waits for every handle: the
 * bios built under it are held (ctx->held) and submitted once it is stopped, because
 * submit_bio waits for io.cost's budget (io.max only queues), and integrity writeback
 * waits for the IO in flight first, without the handle. Linux maps and submits an extent
 * at a time, restarting its handle for each; here one pass's bios wait for its end. write_cache_pages may still wait under it for a page
 * dirtied again while under writeback (not a sequential writer's case).
 * Any other block that is a hole in a dirty page was never written and stays a hole.
 *
 * A block-mapped file's pages share one walk down the block map (Linux's
 * mpage_writepages() keeps its last mapping, map_bh, the same way): the run mapped
 * contiguously from a page's first block to the end of its pointer block is kept for the
 * pass, and a page wholly inside it is mapped without a walk. The map of such a file only
 * ever gains blocks but at a truncate, which counts in i_map_gen and ends the run's use.
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
	struct ext2_io_end *io_end; /* unwritten ranges mapped so far, or NULL */
	bool hold;                  /* under a handle: bios wait in held, in order */
	struct bio *held, **held_tail;
	pgoff_t ahead_from, ahead_to; /* pages after ahead_from up to ahead_to seen delayed */
	struct {
		sector_t first; /* logical block of bno */
		u32 bno, count, gen;
	} run; /* a block-mapped file's blocks mapped by an earlier page of the pass, or the
		* unwritten blocks the pass allocated last for delayed pages (either stays valid
		* until a truncation: i_map_gen) */
};

/* Submit now, or after the handle when ctx holds them. */
static void ext2_wb_submit(struct ext2_wb_ctx *ctx, struct bio *bio)
{
	if (!ctx->hold) {
		submit_bio(bio);
		return;
	}
	bio->bi_next = NULL;
	*ctx->held_tail = bio;
	ctx->held_tail = &bio->bi_next;
}

static void ext2_wb_submit_held(struct ext2_wb_ctx *ctx)
{
	struct bio *bio = ctx->held;

	while (bio) {
		struct bio *next = bio->bi_next;

		bio->bi_next = NULL;
		submit_bio(bio);
		bio = next;
	}
	ctx->held = NULL;
	ctx->held_tail = &ctx->held;
}

static unsigned int ext2_wb_opf(const struct writeback_control *wbc)
{
	unsigned int opf = REQ_OP_WRITE;

	if (wbc->sync_mode == WB_SYNC_ALL)
		opf |= REQ_SYNC;
	else if (wbc->for_background || wbc->for_kupdate)
		opf |= REQ_BACKGROUND;
	return opf;
}

/*
 * A large folio's pages are all in one bio (or in bios chained to the first that holds
 * any of them): its writeback ends once, at the first of its pages.
 */
static void ext2_end_write(struct bio *bio)
{
	struct folio *last = NULL;

	for (unsigned int i = 0; i < bio->bi_vcnt; i++) {
		struct folio *folio = page_folio(bio->bi_io_vec[i].bv_page);

		if (folio == last)
			continue;
		last = folio;
		if (bio->bi_status) {
			folio_set_error(folio);
			mapping_set_error(folio->mapping, bio->bi_status);
		}
		end_page_writeback(&folio->page);
	}
	if (bio->bi_status)
		printk(KERN_ERR "EXT2-fs: I/O error %d writing sectors %llu+%u\n", bio->bi_status,
		       (unsigned long long)bio->bi_sector, bio->bi_size >> SECTOR_SHIFT);
	if (bio->bi_private)
		ext2_io_end_put(bio->bi_private, bio->bi_status);
	bio_put(bio);
}

/* A bio about to be submitted may carry unwritten ranges: it holds the io_end. */
static void ext2_wb_bio_io_end(struct ext2_wb_ctx *ctx, struct bio *bio)
{
	if (ctx->io_end) {
		ext2_io_end_get(ctx->io_end);
		bio->bi_private = ctx->io_end;
	}
}

static void ext2_submit_write(struct ext2_wb_ctx *ctx)
{
	if (ctx->bio) {
		ext2_wb_bio_io_end(ctx, ctx->bio);
		ext2_wb_submit(ctx, ctx->bio);
	}
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

/*
 * A simple folio: its first len bytes (whole pages but the last) join the current bio, or
 * start a new one; a folio is never split between two of them (ext2_end_write()).
 */
static int ext2_wb_add(struct ext2_wb_ctx *ctx, struct folio *folio, sector_t sector, size_t len)
{
	unsigned long nr = DIV_ROUND_UP(len, PAGE_SIZE);

	if (!ctx->bio || !ctx->open || ctx->next != sector ||
	    ctx->bio->bi_vcnt + nr > ctx->bio->bi_max_vecs) {
		ext2_submit_write(ctx);
		ctx->bio = ext2_wb_bio(ctx, sector, BIO_MAX_VECS);
		if (!ctx->bio)
			return -ENOMEM;
	}
	for (unsigned long p = 0; p < nr; p++) {
		unsigned int n = (unsigned int)min(len - (p << PAGE_SHIFT), PAGE_SIZE);

		BUG_ON(bio_add_page(ctx->bio, folio_page(folio, p), n, 0) != n);
	}
	wbc_account_cgroup_owner(ctx->wbc, &folio->page, len);
	ctx->next = sector + (len >> SECTOR_SHIFT);
	ctx->open = len == folio_size(folio);
	return 0;
}

/* The bio for a run of blocks at sector, or the last one if the run continues it. */
static struct bio *ext2_wb_run_bio(struct ext2_wb_ctx *ctx, struct bio *last, sector_t sector,
				   unsigned short vecs)
{
	if (last && bio_end_sector(last) == sector && last->bi_vcnt < last->bi_max_vecs)
		return last;
	return ext2_wb_bio(ctx, sector, vecs);
}

/*
 * An irregular folio: a bio per run of blocks (a run going on into the next page stays in
 * its bio), the later ones chained to the first, whose completion ends the folio's
 * writeback once all of them are done. maps[p] is page p's map. Folio locked; it is set
 * under writeback and unlocked here.
 */
static int ext2_wb_runs(struct ext2_wb_ctx *ctx, struct folio *folio, const struct ext2_page_map *maps)
{
	unsigned int bits = ctx->inode->i_blkbits;
	unsigned short vecs = (unsigned short)folio_nr_pages(folio);
	struct bio *first = NULL, *chained = NULL, *last = NULL;

	ext2_submit_write(ctx);
	for (unsigned long p = 0; p < folio_nr_pages(folio); p++) {
		const struct ext2_page_map *m = &maps[p];
		struct page *page = folio_page(folio, p);

		for (unsigned int i = 0; i < m->nr;) {
			unsigned int n = ext2_page_run(m, i);
			struct bio *bio;

			if (!n) {
				i++;
				continue;
			}
			bio = ext2_wb_run_bio(ctx, i ? NULL : last,
					      ext2_block_sector(ctx->inode, m->bno[i]), vecs);
			if (!bio)
				goto nomem;
			bio_add_page(bio, page, n << bits, i << bits);
			wbc_account_cgroup_owner(ctx->wbc, page, n << bits);
			if (bio != last && first) {
				bio->bi_end_io = NULL; /* the first one's completion does it all */
				bio_chain(bio, first);
				bio->bi_next = chained;
				chained = bio;
			} else if (!first) {
				first = bio;
			}
			/* only a run reaching the page's end may go on in the next page */
			last = i + n == m->blocks_per_page ? bio : NULL;
			i += n;
		}
	}
	set_page_writeback(&folio->page);
	folio_unlock(folio);
	if (first)
		ext2_wb_bio_io_end(ctx, first); /* its completion is the folio's */
	while (chained) {
		struct bio *next = chained->bi_next;

		chained->bi_next = NULL; /* the block layer links a request's bios there */
		ext2_wb_submit(ctx, chained);
		chained = next;
	}
	if (first)
		ext2_wb_submit(ctx, first); /* the first last: not complete before its children */
	return 0;
nomem:
	while (chained) {
		struct bio *next = chained->bi_next;

		bio_put(chained);
		chained = next;
	}
	if (first)
		bio_put(first);
	return -ENOMEM;
}

/*
 * Delayed pages after at that this writeback may reach, dirty and delayed: the run
 * allocated with at's blocks (the rest of at's own folio, locked and cleaned for this IO
 * already, by its slots alone). A hint read without their locks; a page it counts but
 * does not write keeps its delayed slots and finds its blocks (unwritten) next time.
 * What an earlier look saw still counts: an allocation shorter than the run (a
 * reservation window's end) looks again from inside it, and looking up every page again
 * made the page-cache lookup the largest cost after the copy at 16 writers on ext4.
 */
static unsigned long ext2_da_lookahead(struct ext2_wb_ctx *ctx, struct page *at)
{
	struct folio *own = page_folio(at); /* locked, and cleaned for this IO already */
	pgoff_t index = page_index(at);
	struct address_space *mapping = ctx->inode->i_mapping;
	loff_t isize = ctx->inode->i_size;
	unsigned long limit = isize ? (unsigned long)((isize - 1) >> PAGE_SHIFT) - index : 0, n;

	limit = min(limit, (unsigned long)BIO_MAX_VECS * 8);
	if (ctx->wbc->sync_mode == WB_SYNC_NONE)
		limit = min(limit, (unsigned long)max(ctx->wbc->nr_to_write - 1, 0L));
	n = 0;
	if (index >= ctx->ahead_from && index < ctx->ahead_to)
		n = min(ctx->ahead_to - index, limit);
	for (; n < limit; n++) {
		pgoff_t next = index + 1 + n;
		struct page *page;
		bool delayed;

		if (next < folio_next_index(own)) {
			if (!ext2_da_delayed(folio_file_page(own, next)))
				break;
			continue;
		}
		page = find_get_page(mapping, next);
		delayed = page && PageDirty(page) && ext2_da_delayed(page);
		if (page)
			put_page(page);
		if (!delayed)
			break;
	}
	ctx->ahead_from = index;
	ctx->ahead_to = index + n;
	return n;
}

/* An io_end with room for a range: the full one goes with the bios already built. */
static void ext2_wb_io_end_room(struct ext2_wb_ctx *ctx)
{
	if (ctx->io_end && ctx->io_end->nr < EXT2_IO_END_RANGES)
		return;
	if (ctx->io_end) {
		ext2_submit_write(ctx);
		ext2_io_end_put(ctx->io_end, 0);
	}
	ctx->io_end = ext2_io_end_alloc(ctx->inode);
}

static bool ext2_wb_run_covers(const struct ext2_wb_ctx *ctx, sector_t first, unsigned int n)
{
	return ctx->run.count && READ_ONCE(EXT2_I(ctx->inode)->i_map_gen) == ctx->run.gen &&
	       first >= ctx->run.first && first + n <= ctx->run.first + ctx->run.count;
}

/*
 * The blocks of want delayed slots from block (of page): the run this pass allocated last
 * if it holds them (its later pages' blocks); else what is mapped already (unwritten
 * extents: an earlier pass's run, or fallocate's); else allocated as unwritten extents,
 * with the delayed pages after page when the slots reach its end (to_end), up to the end
 * of file. Returns how many from block are mapped (*bno the first), or an error.
 */
static int ext2_da_find_blocks(struct ext2_wb_ctx *ctx, struct page *page, sector_t block,
			       unsigned long want, bool to_end, u32 *bno, bool *unwritten)
{
	struct inode *inode = ctx->inode;
	unsigned int bits = inode->i_blkbits;
	sector_t eof = (sector_t)((inode->i_size + (1 << bits) - 1) >> bits);
	int n;

	if (ext2_wb_run_covers(ctx, block, (unsigned int)want)) {
		*bno = ctx->run.bno + (u32)(block - ctx->run.first);
		*unwritten = true;
		return (int)want;
	}
	n = ext2_get_blocks(inode, block, want, bno, EXT2_GET_BLOCKS_UNWRIT, unwritten);
	if (n)
		return n;
	if (to_end)
		want += ext2_da_lookahead(ctx, page) << (PAGE_SHIFT - bits);
	want = min(want, (unsigned long)(eof - block));
	ctx->run.gen = READ_ONCE(EXT2_I(inode)->i_map_gen); /* read before the allocation */
	n = ext2_get_blocks(inode, block, want, bno,
			    EXT2_GET_BLOCKS_CREATE | EXT2_GET_BLOCKS_UNWRIT, unwritten);
	if (n > 0 && *unwritten) {
		ctx->run.first = block;
		ctx->run.bno = *bno;
		ctx->run.count = (u32)n;
	}
	return n;
}

/*
 * The delayed slots of page (before the end of file) get blocks: unwritten extents, each
 * run with the dirty delayed pages after it. m gets their blocks, their reservations go,
 * and the ranges join the io_end. Slots handled before an error keep their blocks.
 */
static int ext2_da_map_page(struct ext2_wb_ctx *ctx, struct page *page, struct ext2_page_map *m)
{
	struct inode *inode = ctx->inode;
	unsigned int bits = inode->i_blkbits, per_page = m->blocks_per_page;
	sector_t first = (sector_t)page_index(page) << (PAGE_SHIFT - bits);
	unsigned long delayed = ext2_da_delayed(page), done = 0;
	bool protect = false;
	int err = 0;

	for (unsigned int i = 0; i < m->nr && !err; i++) {
		unsigned long want = 1;
		bool unwritten = false;
		u32 bno;
		int n;

		if (!(delayed & (1UL << i)))
			continue;
		while (i + want < m->nr && (delayed & (1UL << (i + want))))
			want++;
		ext2_wb_io_end_room(ctx);
		n = ext2_da_find_blocks(ctx, page, first + i, want, i + want == per_page, &bno,
					&unwritten);
		if (n <= 0) {
			err = n ? n : -EIO;
			break;
		}
		n = (int)min((unsigned int)n, m->nr - i);
		if (unwritten) {
			ext2_io_end_add(ctx->io_end, (u32)(first + i), (u32)n);
			protect = true;
		}
		for (int j = 0; j < n; j++, i++) {
			m->bno[i] = bno + (u32)j;
			done |= 1UL << i;
		}
		i--;
	}
	ext2_da_release_slots(inode, page, done);
	if (protect)
		ext2_da_protect_page(page, ctx->io_end->in_inode.seq);
	ext2_page_map_finish(m);
	return err;
}

/*
 * Blocks [first, first + n) of a block-mapped file one run on disk, as the pass's run says
 * (looked up and extended across pointer blocks if need be)? *bno gets the first's block.
 */
static bool ext2_wb_run_lookup(struct ext2_wb_ctx *ctx, sector_t first, unsigned int n, u32 *bno)
{
	struct inode *inode = ctx->inode;

	if (!ext2_wb_run_covers(ctx, first, n)) {
		u32 gen = READ_ONCE(EXT2_I(inode)->i_map_gen), b, more;
		bool new;
		int got = ext2_get_blocks(inode, first, UINT_MAX, &b, 0, &new);

		while (got > 0 && got < (int)n) {
			int m = ext2_get_blocks(inode, first + (u32)got, UINT_MAX, &more, 0, &new);

			if (m <= 0 || more != b + (u32)got)
				break;
			got += m;
		}
		if (got < (int)n)
			return false; /* a hole, or blocks apart */
		ctx->run.first = first;
		ctx->run.bno = b;
		ctx->run.count = (u32)got;
		ctx->run.gen = gen;
	}
	*bno = ctx->run.bno + (u32)(first - ctx->run.first);
	return true;
}

/* A whole page of a block-mapped file inside the pass's run (looked up if need be)? */
static bool ext2_wb_map_from_run(struct ext2_wb_ctx *ctx, struct page *page, loff_t isize,
				 struct ext2_page_map *m)
{
	struct inode *inode = ctx->inode;
	unsigned int bits = inode->i_blkbits, per_page = 1u << (PAGE_SHIFT - bits);
	sector_t first = (sector_t)page_index(page) << (PAGE_SHIFT - bits);
	u32 bno;

	if ((EXT2_I(inode)->i_flags & EXT4_EXTENTS_FL) || ((loff_t)(first + per_page) << bits) > isize)
		return false; /* the last, partial page goes the usual way */
	if (!ext2_wb_run_lookup(ctx, first, per_page, &bno))
		return false; /* page by page */
	memset(m, 0, sizeof(*m));
	m->blocks_per_page = per_page;
	m->nr = per_page;
	for (unsigned int i = 0; i < per_page; i++)
		m->bno[i] = bno + i;
	ext2_page_map_finish(m);
	return true;
}

/*
 * The map of a page whose every block before the end of file is delayed: holes (or
 * unwritten extents, which read as holes too), known without a lookup. False otherwise.
 */
static bool ext2_da_page_unmapped(struct inode *inode, struct page *page, loff_t isize,
				  struct ext2_page_map *m)
{
	unsigned int bits = inode->i_blkbits, per_page = 1u << (PAGE_SHIFT - bits);
	loff_t pos = (loff_t)page_index(page) << PAGE_SHIFT;
	unsigned int nr;

	if (pos >= isize)
		return false;
	nr = (unsigned int)min((loff_t)per_page, (isize - pos + (1 << bits) - 1) >> bits);
	if (ext2_da_delayed(page) != (1UL << nr) - 1)
		return false;
	memset(m, 0, sizeof(*m));
	m->blocks_per_page = per_page;
	m->nr = nr;
	ext2_page_map_finish(m);
	return true;
}

/* A page's map, for writeback: from the pass's run, of its delayed blocks, or looked up. */
static int ext2_wb_map_page(struct ext2_wb_ctx *ctx, struct page *page, loff_t isize,
			    struct ext2_page_map *m)
{
	if (ext2_wb_map_from_run(ctx, page, isize, m) ||
	    ext2_da_page_unmapped(ctx->inode, page, isize, m))
		return 0;
	return ext2_map_page(ctx->inode, page, isize, m);
}

/* The first len bytes of a locked folio, one run on disk from bno, join the bio; unlocked. */
static int ext2_wb_whole(struct ext2_wb_ctx *ctx, struct folio *folio, u32 bno, size_t len)
{
	int err = ext2_wb_add(ctx, folio, ext2_block_sector(ctx->inode, bno), len);

	if (!err) {
		set_page_writeback(&folio->page);
		folio_unlock(folio);
	}
	return err;
}

/* A one-page folio: mapped (delayed blocks allocated), then added to a bio. Locked. */
static int ext2_wb_page(struct ext2_wb_ctx *ctx, struct page *page, loff_t isize)
{
	struct inode *inode = ctx->inode;
	struct ext2_page_map m;
	int err;

	ext2_zero_post_eof(page, isize);
	err = ext2_wb_map_page(ctx, page, isize, &m);
	if (!err && ext2_da_delayed(page))
		err = ext2_da_map_page(ctx, page, &m);
	if (err)
		return err;
	if (!m.prefix && m.simple) {
		unlock_page(page); /* nothing mapped: the page holds only holes */
		return 0;
	}
	if (!m.simple)
		return ext2_wb_runs(ctx, page_folio(page), &m);
	return ext2_wb_whole(ctx, page_folio(page), m.bno[0], m.prefix << inode->i_blkbits);
}

/* The first len bytes of a folio one run on disk, as its pages' maps say? *bno: its first. */
static bool ext2_maps_one_run(const struct ext2_page_map *maps, size_t len, unsigned int bits,
			      u32 *bno)
{
	size_t blocks = 0;

	for (unsigned long p = 0; p < DIV_ROUND_UP(len, PAGE_SIZE); p++) {
		const struct ext2_page_map *m = &maps[p];

		if (!m->nr || !m->simple || m->prefix != m->nr ||
		    m->bno[0] != maps[0].bno[0] + (u32)blocks)
			return false;
		blocks += m->nr;
	}
	*bno = maps[0].bno[0];
	return blocks << bits == len;
}

/*
 * A large folio: one piece of a bio when its blocks up to the end of file are one run on
 * disk, which for a block-mapped file the pass's run usually says without a walk; else
 * each page mapped (its delayed blocks allocated) and, when they are not one run after
 * all, written run by run. Locked.
 */
static int ext2_wb_folio(struct ext2_wb_ctx *ctx, struct folio *folio, loff_t isize)
{
	struct inode *inode = ctx->inode;
	unsigned int bits = inode->i_blkbits;
	unsigned long nr = folio_nr_pages(folio);
	size_t len = (size_t)min((loff_t)folio_size(folio), isize - folio_pos(folio));
	sector_t first = (sector_t)folio->index << (PAGE_SHIFT - bits);
	struct ext2_page_map maps[1UL << MAX_PAGECACHE_ORDER];
	bool any = false;
	u32 bno;

	len = ALIGN(len, (size_t)1 << bits);
	for (unsigned long p = (len - 1) >> PAGE_SHIFT; p < nr; p++)
		ext2_zero_post_eof(folio_page(folio, p), isize);
	if (!(EXT2_I(inode)->i_flags & EXT4_EXTENTS_FL) &&
	    ext2_wb_run_lookup(ctx, first, (unsigned int)(len >> bits), &bno))
		return ext2_wb_whole(ctx, folio, bno, len);
	for (unsigned long p = 0; p < nr; p++) {
		struct page *page = folio_page(folio, p);
		int err = ext2_wb_map_page(ctx, page, isize, &maps[p]);

		if (!err && ext2_da_delayed(page))
			err = ext2_da_map_page(ctx, page, &maps[p]);
		if (err)
			return err;
		any |= maps[p].prefix || !maps[p].simple;
	}
	if (!any) {
		folio_unlock(folio); /* nothing mapped: holes only */
		return 0;
	}
	if (ext2_maps_one_run(maps, len, bits, &bno))
		return ext2_wb_whole(ctx, folio, bno, len);
	return ext2_wb_runs(ctx, folio, maps);
}

static int ext2_writepage_cb(struct page *page, struct writeback_control *wbc, void *data)
{
	struct ext2_wb_ctx *ctx = data;
	struct inode *inode = ctx->inode;
	loff_t isize = inode->i_size;
	int err;

	if ((loff_t)page->index << PAGE_SHIFT >= isize) {
		unlock_page(page); /* wholly past the end: truncate is removing it */
		return 0;
	}
	err = PageHead(page) ? ext2_wb_folio(ctx, page_folio(page), isize) :
			       ext2_wb_page(ctx, page, isize);
	if (err == -ENOMEM) {
		redirty_page_for_writepage(wbc, page);
		unlock_page(page);
	} else if (err) {
		/* as Linux's "Delayed block allocation failed": the page's delayed data is lost
		 * (one line per page is rate-limited, as Linux's; the mapping keeps the error) */
		static DEFINE_RATELIMIT_STATE(rs, DEFAULT_RATELIMIT_INTERVAL,
					      DEFAULT_RATELIMIT_BURST);

		if (__ratelimit(&rs))
			ext2_msg(inode->i_sb, KERN_ERR,
				 "inode #%lu: writing page %lu failed: error %d", inode->i_ino,
				 (unsigned long)page->index, err);
		ext2_da_release_folio(inode, page_folio(page));
		mapping_set_error(page->mapping, err);
		unlock_page(page);
	}
	return err;
}

int ext2_writepages(struct address_space *mapping, struct writeback_control *wbc)
{
	struct ext2_wb_ctx ctx = { .inode = mapping->host, .wbc = wbc, .opf = ext2_wb_opf(wbc) };
	struct super_block *sb = mapping->host->i_sb;
	bool delalloc = ext2_inode_delalloc(mapping->host);
	int err;

	ctx.hold = delalloc;
	ctx.held_tail = &ctx.held;
	if (delalloc && wbc->sync_mode == WB_SYNC_ALL)
		/* the IO in flight waited for before the handle, not under it (above) */
		filemap_fdatawait_range(mapping, wbc->range_start, wbc->range_end);
	err = delalloc ? ext2_journal_start(sb) : 0;
	if (err)
		return err;
	/* no plug of our own: see ext2_readahead */
	err = write_cache_pages(mapping, wbc, ext2_writepage_cb, &ctx);
	ext2_submit_write(&ctx);
	if (delalloc)
		ext2_journal_stop(sb);
	ext2_wb_submit_held(&ctx);
	if (ctx.io_end)
		ext2_io_end_put(ctx.io_end, 0);
	return err;
}

/*
 * One page (reclaim, or anyone without ->writepages): a bio of its own. A page with
 * delayed blocks is left dirty, as Linux's ext4_writepage leaves it: allocating needs a
 * handle, and its page lock is held already.
 */
int ext2_writepage(struct page *page, struct writeback_control *wbc)
{
	struct ext2_wb_ctx ctx = { .inode = page_folio(page)->mapping->host,
				   .wbc = wbc,
				   .opf = ext2_wb_opf(wbc) };
	int err;

	if (ext2_da_folio_delayed(page_folio(page))) {
		redirty_page_for_writepage(wbc, page);
		unlock_page(page);
		return 0;
	}
	err = ext2_writepage_cb(page, wbc, &ctx);
	ext2_submit_write(&ctx);
	return err;
}
