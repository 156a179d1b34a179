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

	for (bh = t->t_buffers; bh; bh = bh->b_jnext)
		if (buffer_jdirty(bh))
			mark_buffer_dirty(bh);
	return sync_blockdev(j->j_dev) ?: blkdev_issue_flush(j->j_dev);
}
