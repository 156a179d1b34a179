/*
 * Buffer heads: the LRU (fs/buffer-lru.c) gives a block looked up again the same buffer,
 * and the references it holds never keep a page's buffers from being freed (truncating
 * the device's page cache empties it) nor hand out a buffer of another block size; a
 * task waiting for one buffer's lock is not woken by other buffers' unlocks.
 */
#include <criterion/criterion.h>
#include <cgwb/buffer_head.h>
#include <cgwb/pagemap.h>
#include <cgwb/fs.h>
#include <cgwb/sched.h>
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

TestSuite(buffer, .init = setup, .fini = teardown);

Test(buffer, a_block_looked_up_again_is_the_same_buffer)
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

Test(buffer, held_buffers_never_keep_the_page_cache_from_being_freed)
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

/*
 * Each CPU has its LRU: buffers one CPU looked up are let go when another frees their
 * page. (The read on CPU 1 finds its block cached: the host runs only CPU 0's tasks.)
 */
Test(buffer, every_cpu_lets_go_of_a_freed_page)
{
	struct block_device *bdev = ext2t_env.disk->part0;
	struct address_space *mapping = bdev_mapping(bdev);

	brelse(__bread(bdev, 5, 1024));
	host_set_nr_cpus(2);
	host_set_cpu(1);
	brelse(__bread(bdev, 5, 1024));
	host_set_cpu(0);
	/* CPU 0's LRU forgets block 5; CPU 1's keeps it */
	for (sector_t b = 100; b < 120; b++)
		brelse(__bread(bdev, b, 1024));
	invalidate_mapping_pages(mapping, 0, ~0UL);
	cr_assert_eq(mapping->nrpages, 0, "%lu pages stayed: CPU 1's LRU kept a buffer",
		     mapping->nrpages);
}

Test(buffer, another_block_size_gets_buffers_of_its_size)
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

static struct buffer_head *waited_bh;
static unsigned long waiter_switches;

static int wait_for_buffer(void *arg)
{
	(void)arg;
	lock_buffer(waited_bh);
	waiter_switches = current->nr_switches;
	unlock_buffer(waited_bh);
	return 0;
}

Test(buffer, an_unlock_wakes_only_who_waits_for_that_buffer)
{
	struct block_device *bdev = ext2t_env.disk->part0;
	struct buffer_head *other[16];
	struct task_struct *t;

	waited_bh = __getblk(bdev, 100, 1024);
	cr_assert_not_null(waited_bh);
	for (int i = 0; i < 16; i++) {
		other[i] = __getblk(bdev, 200 + 8 * i, 1024);
		cr_assert_not_null(other[i]);
	}
	lock_buffer(waited_bh);
	t = kthread_run(wait_for_buffer, NULL, "waiter");
	cr_assert_not_null(t);
	host_run_until_idle(); /* the waiter sleeps on waited_bh's lock */
	for (int round = 0; round < 4; round++) {
		for (int i = 0; i < 16; i++) {
			lock_buffer(other[i]);
			unlock_buffer(other[i]);
		}
		host_run_until_idle();
	}
	unlock_buffer(waited_bh);
	kthread_join(t);
	/* woken in vain by 64 unlocks with one queue for all; by a few at most when hashed */
	cr_assert_leq(waiter_switches, 4, "the waiter was switched out %lu times", waiter_switches);
	brelse(waited_bh);
	for (int i = 0; i < 16; i++)
		brelse(other[i]);
}
