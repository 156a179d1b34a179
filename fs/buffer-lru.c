/*
 * The buffer-head LRU, as Linux's per-CPU bh_lrus: the last BH_LRU_SIZE buffers that
 * __getblk() handed out, each holding a reference, are looked at before the page cache.
 *
 * Why: ext2's block map reads the same one or two pointer blocks for every page written
 * and again for every page written back; through the block device's page cache each read
 * is a locked page lookup. A file written sequentially hits here on all but the first.
 *
 * Lifetime: an entry's reference keeps its buffer (try_to_free_buffers() refuses busy
 * ones), so whatever frees a page's buffers evicts them from the LRU first
 * (bh_lru_evict()). Task context only. One LRU for every CPU under a lock, where Linux
 * keeps one per CPU and evicts through an IPI to each: a lookup is a few compares, and
 * one list needs no cross-CPU eviction.
 */
#include <cgwb/buffer_head.h>
#include <cgwb/spinlock.h>
#include <cgwb/string.h>
#include "internal.h"

#define BH_LRU_SIZE 8

static struct buffer_head *bh_lru[BH_LRU_SIZE]; /* most recently used first */
static DEFINE_SPINLOCK(bh_lru_lock);

/* Entry i moves to the front: entries before it shift down one. bh_lru_lock held. */
static void bh_lru_to_front(unsigned int i, struct buffer_head *bh)
{
	memmove(&bh_lru[1], &bh_lru[0], i * sizeof(bh_lru[0]));
	bh_lru[0] = bh;
}

struct buffer_head *bh_lru_lookup(struct block_device *bdev, sector_t block, unsigned int size)
{
	struct buffer_head *found = NULL;

	spin_lock(&bh_lru_lock);
	for (unsigned int i = 0; i < BH_LRU_SIZE && bh_lru[i]; i++) {
		struct buffer_head *bh = bh_lru[i];

		if (bh->b_blocknr == block && bh->b_bdev == bdev && bh->b_size == size) {
			bh_lru_to_front(i, bh);
			get_bh(bh);
			found = bh;
			break;
		}
	}
	spin_unlock(&bh_lru_lock);
	return found;
}

void bh_lru_install(struct buffer_head *bh)
{
	struct buffer_head *evicted = NULL;
	unsigned int i;

	spin_lock(&bh_lru_lock);
	/* a task preempted between its miss and here may find another installed it */
	for (i = 0; i < BH_LRU_SIZE - 1 && bh_lru[i] && bh_lru[i] != bh; i++)
		;
	if (bh_lru[i] != bh) {
		evicted = bh_lru[i];
		get_bh(bh);
	}
	bh_lru_to_front(i, bh);
	spin_unlock(&bh_lru_lock);
	brelse(evicted);
}

/* Drop the LRU's references to page's buffers (page NULL: to every buffer). */
void bh_lru_evict(struct page *page)
{
	struct buffer_head *dropped[BH_LRU_SIZE];
	unsigned int kept = 0, n = 0;

	spin_lock(&bh_lru_lock);
	for (unsigned int i = 0; i < BH_LRU_SIZE && bh_lru[i]; i++) {
		if (!page || bh_lru[i]->b_page == page)
			dropped[n++] = bh_lru[i];
		else
			bh_lru[kept++] = bh_lru[i];
	}
	for (unsigned int i = kept; i < BH_LRU_SIZE; i++)
		bh_lru[i] = NULL;
	spin_unlock(&bh_lru_lock);
	for (unsigned int i = 0; i < n; i++)
		brelse(dropped[i]);
}
