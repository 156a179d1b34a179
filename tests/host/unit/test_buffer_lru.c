/*
 * The buffer-head LRU (fs/buffer-lru.c): a block looked up again is the same buffer, and
 * the references the LRU holds never keep a page's buffers from being freed (truncating
 * the device's page cache empties it) nor hand out a buffer of another block size.
 */
#include <criterion/criterion.h>
#include <cgwb/buffer_head.h>
#include <cgwb/pagemap.h>
#include <cgwb/fs.h>
#include "host.h"
#include "test_ext2.h"

static void setup(void)
{
	ext2t_boot(32);
	ext2t_mkfs("-b 1024", 4096);
	ext2t_attach();
}

static void teardown(void)
{
	ext2t_shutdown();
}

TestSuite(buffer_lru, .init = setup, .fini = teardown);

Test(buffer_lru, a_block_looked_up_again_is_the_same_buffer)
{
	struct block_device *bdev = ext2t_env.disk->part0;
	struct buffer_head *first = __bread(bdev, 1, 1024);

	cr_assert_not_null(first);
	brelse(first);
	/* more blocks than the LRU holds, then the first one again */
	for (sector_t b = 2; b < 40; b++) {
		struct buffer_head *bh = __bread(bdev, b, 1024);
		cr_assert_not_null(bh);
		cr_assert_eq(bh->b_blocknr, b);
		brelse(bh);
	}
	for (int i = 0; i < 3; i++) {
		struct buffer_head *bh = __bread(bdev, 39, 1024), *again = __bread(bdev, 39, 1024);

		cr_assert_eq(bh, again);
		cr_assert_eq(bh->b_blocknr, 39);
		brelse(bh);
		brelse(again);
	}
}

Test(buffer_lru, held_buffers_never_keep_the_page_cache_from_being_freed)
{
	struct block_device *bdev = ext2t_env.disk->part0;
	struct address_space *mapping = bdev_mapping(bdev);

	for (sector_t b = 0; b < 16; b++)
		brelse(__bread(bdev, b, 1024));
	cr_assert_gt(mapping->nrpages, 0);
	invalidate_bdev(bdev);
	cr_assert_eq(mapping->nrpages, 0, "%lu pages stayed after invalidate_bdev", mapping->nrpages);
	/* one buffer's page, freed through the page cache alone (as reclaim would) */
	brelse(__bread(bdev, 3, 1024));
	cr_assert_eq(invalidate_mapping_pages(mapping, 0, ~0UL), 1);
	cr_assert_eq(mapping->nrpages, 0);
}

Test(buffer_lru, another_block_size_gets_buffers_of_its_size)
{
	struct block_device *bdev = ext2t_env.disk->part0;
	struct buffer_head *bh = __bread(bdev, 4, 1024);

	cr_assert_not_null(bh);
	brelse(bh);
	/* the same page, now in 4 KiB blocks: the 1 KiB buffers the LRU holds must go */
	bh = __bread(bdev, 1, 4096);
	cr_assert_not_null(bh);
	cr_assert_eq(bh->b_size, 4096);
	brelse(bh);
	bh = __bread(bdev, 4, 1024);
	cr_assert_not_null(bh);
	cr_assert_eq(bh->b_size, 1024);
	brelse(bh);
}
