/*
 * Checkpoint, as Linux's fs/jbd2/checkpoint.c but at the end of every commit (commit.c):
 * the committed transaction's buffers written to their home blocks and flushed, after
 * which the log holds nothing the filesystem still needs. The buffers go out through the
 * device's cache, as any metadata, from kjournald2: journal IO stays with the root cgroup.
 */
#include "jbd2.h"
#include <cgwb/buffer_head.h>
#include <cgwb/blkdev.h>

int jbd2_checkpoint(journal_t *j, transaction_t *t)
{
	struct buffer_head *bh;
	unsigned long index;

	xa_for_each_range(&t->t_buffers, index, bh, 0, ~0UL, XA_PRESENT) mark_buffer_dirty(bh);
	return sync_blockdev(j->j_dev) ?: blkdev_issue_flush(j->j_dev);
}
