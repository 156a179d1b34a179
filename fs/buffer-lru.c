/*
 * The buffer-head LRU, as Linux's per-CPU bh_lrus: the last BH_LRU_SIZE buffers that
 * __getblk() handed out, each holding a reference, are looked at before the page cache.
 *
 * Why: ext2's block map reads the same one or two pointer blocks for every page written
 * and again for every page written back; through the block device's page cache each read
 * is a locked page lookup. A file written sequentially hits here on all but the first.
 *
 * Lifetime: an entry's reference keeps its buffer (try_to_free_buffers() refuses busy
 * ones), so whatever frees a page's buffers evicts them from the LRUs first
 * (bh_lru_evict()). Task context only.
 *
 * One LRU per CPU, as Linux's: one shared list under a lock was the hottest lock of the
 * machine with several CPUs (16 writers on 2 CPUs spent two thirds of their ticks spinning
 * on it). Each CPU's list keeps a lock of its own, which only an eviction from another CPU
 * ever contends, where Linux evicts through an IPI to each CPU.
 */
#include <cgwb/buffer_head.h>
#include <cgwb/spinlock.h>
#include <cgwb/percpu.h>
#include <cgwb/string.h>
#include "internal.h"

#define BH_LRU_SIZE 8

struct bh_lru {
	spinlock_t lock;
	struct buffer_head *bhs[BH_LRU_SIZE]; /* most recently used first */
};

static struct bh_lru bh_lrus[NR_CPUS] = {
	[0 ... NR_CPUS - 1] = { .lock = __SPIN_LOCK_UNLOCKED(bh_lru.lock) },
};

/* This CPU's LRU, locked, preemption off until bh_lru_unlock(). */
static struct bh_lru *bh_lru_lock(void)
{
	struct bh_lru *lru;

	preempt_disable();
	lru = this_cpu_ptr(&bh_lrus);
	spin_lock(&lru->lock);
	return lru;
}

static void bh_lru_unlock(struct bh_lru *lru)
{
	spin_unlock(&lru->lock);
	preempt_enable();
}

/* Entry i moves to the front: entries before it shift down one. The LRU's lock held. */
static void bh_lru_to_front(struct bh_lru *lru, unsigned int i, struct buffer_head *bh)
{
	memmove(&lru->bhs[1], &lru->bhs[0], i * sizeof(lru->bhs[0]));
	lru->bhs[0] = bh;
}

struct buffer_head *bh_lru_lookup(struct block_device *bdev, sector_t block, unsigned int size)
{
	struct bh_lru *lru = bh_lru_lock();
	struct buffer_head *found = NULL;

	for (unsigned int i = 0; i < BH_LRU_SIZE && lru->bhs[i]; i++) {
		struct buffer_head *bh = lru->bhs[i];

		if (bh->b_blocknr == block && bh->b_bdev == bdev && bh->b_size == size) {
			bh_lru_to_front(lru, i, bh);
			get_bh(bh);
			found = bh;
			break;
		}
	}
	bh_lru_unlock(lru);
	return found;
}

void bh_lru_install(struct buffer_head *bh)
{
	struct bh_lru *lru = bh_lru_lock();
	struct buffer_head *evicted = NULL;
	unsigned int i;

	/* a task preempted between its miss and here may find another installed it */
	for (i = 0; i < BH_LRU_SIZE - 1 && lru->bhs[i] && lru->bhs[i] != bh; i++)
		;
	if (lru->bhs[i] != bh) {
		evicted = lru->bhs[i];
		get_bh(bh);
	}
	bh_lru_to_front(lru, i, bh);
	bh_lru_unlock(lru);
	brelse(evicted);
}

/* Drop one CPU's references to page's buffers (page NULL: to every buffer). */
static void bh_lru_evict_cpu(struct bh_lru *lru, struct page *page)
{
	struct buffer_head *dropped[BH_LRU_SIZE];
	unsigned int kept = 0, n = 0;

	spin_lock(&lru->lock);
	for (unsigned int i = 0; i < BH_LRU_SIZE && lru->bhs[i]; i++) {
		if (!page || lru->bhs[i]->b_page == page)
			dropped[n++] = lru->bhs[i];
		else
			lru->bhs[kept++] = lru->bhs[i];
	}
	for (unsigned int i = kept; i < BH_LRU_SIZE; i++)
		lru->bhs[i] = NULL;
	spin_unlock(&lru->lock);
	for (unsigned int i = 0; i < n; i++)
		brelse(dropped[i]);
}

void bh_lru_evict(struct page *page)
{
	for (unsigned int cpu = 0; cpu < NR_CPUS; cpu++)
		bh_lru_evict_cpu(&bh_lrus[cpu], page);
}
