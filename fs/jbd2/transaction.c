/*
 * Handles and the running transaction, as Linux's fs/jbd2/transaction.c: a handle brackets
 * one atomic change (a system call's metadata); every buffer it changes joins the running
 * transaction instead of being marked dirty, so nothing journalled reaches its home block
 * before the commit that logs it (commit.c writes it home afterwards).
 *
 * A commit locks the running transaction (j_barrier): new handles wait, the open ones are
 * waited for (t_updates to 0). A task that already holds a handle gets the same one back
 * (h_ref), or a nested start would wait for a commit that waits for it. Handles are found
 * by task in j_handles: a few at a time, looked up on start and on each dirtied buffer.
 *
 * j_state_lock (a spinlock) guards all of it: buffers are dirtied under the filesystem's
 * allocator lock with preemption off, so nothing here sleeps once a handle is open.
 */
#include "jbd2.h"
#include <cgwb/buffer_head.h>
#include <cgwb/sched.h>
#include <cgwb/slab.h>
#include <cgwb/bug.h>
#include <cgwb/errno.h>

static handle_t *current_handle_locked(journal_t *j)
{
	handle_t *h;

	list_for_each_entry(h, &j->j_handles, h_list)
		if (h->h_task == current)
			return h;
	return NULL;
}

handle_t *jbd2_journal_current_handle(journal_t *j)
{
	handle_t *h;

	spin_lock(&j->j_state_lock);
	h = current_handle_locked(j);
	spin_unlock(&j->j_state_lock);
	return h;
}

/* Room for a handle: not locked by a commit, and not past the transaction's size. */
static bool jbd2_may_start(journal_t *j)
{
	transaction_t *t = j->j_running_transaction;

	return j->j_errno || (!j->j_barrier && t->t_nr_buffers < j->j_max_transaction_buffers);
}

handle_t *jbd2_journal_start(journal_t *j)
{
	handle_t *h = kzalloc(sizeof(*h), GFP_KERNEL), *cur;

	spin_lock(&j->j_state_lock);
	cur = current_handle_locked(j);
	if (cur) {
		cur->h_ref++;
		spin_unlock(&j->j_state_lock);
		kfree(h);
		return cur;
	}
	while (!jbd2_may_start(j)) {
		/* full: ask for a commit; locked: one is running. Either way, wait for it. */
		j->j_commit_request = j->j_running_transaction->t_tid;
		spin_unlock(&j->j_state_lock);
		wake_up(&j->j_wait_commit);
		wait_event(j->j_wait_transaction_locked,
			   READ_ONCE(j->j_errno) || (!READ_ONCE(j->j_barrier) && jbd2_may_start(j)));
		spin_lock(&j->j_state_lock);
	}
	if (j->j_errno || !h) {
		spin_unlock(&j->j_state_lock);
		kfree(h);
		return ERR_PTR(h ? -EROFS : -ENOMEM);
	}
	h->h_task = current;
	h->h_ref = 1;
	list_add(&h->h_list, &j->j_handles);
	j->j_running_transaction->t_updates++;
	spin_unlock(&j->j_state_lock);
	/* as Linux's jbd2__journal_start(): reclaim must not wait for this handle's commit */
	h->h_saved_nofs = memalloc_nofs_save();
	return h;
}

void jbd2_journal_stop(journal_t *j, handle_t *h)
{
	bool last;

	spin_lock(&j->j_state_lock);
	BUG_ON(h->h_task != current || h->h_ref <= 0);
	if (--h->h_ref) {
		spin_unlock(&j->j_state_lock);
		return;
	}
	list_del(&h->h_list);
	last = !--j->j_running_transaction->t_updates;
	spin_unlock(&j->j_state_lock);
	memalloc_nofs_restore(h->h_saved_nofs);
	if (last)
		wake_up_all(&j->j_wait_updates);
	kfree(h);
}

/*
 * Dirtied under a handle, or by the commit itself while it holds the transaction (its
 * flush_metadata). Anything else would be a change no commit can make atomic: it is
 * warned about once, and joins the transaction all the same.
 */
void jbd2_journal_dirty_metadata(journal_t *j, struct buffer_head *bh)
{
	transaction_t *t;

	spin_lock(&j->j_state_lock);
	WARN_ON_ONCE(!current_handle_locked(j) && !(j->j_barrier && current == j->j_task));
	t = j->j_running_transaction;
	if (!buffer_jlist(bh)) {
		set_buffer_jlist(bh);
		get_bh(bh);
		bh->b_jnext = NULL;
		*t->t_buffers_tail = bh;
		t->t_buffers_tail = &bh->b_jnext;
	}
	if (!buffer_jdirty(bh)) {
		set_buffer_jdirty(bh);
		t->t_nr_buffers++;
	}
	spin_unlock(&j->j_state_lock);
}

/* The block was freed: nothing of this transaction's goes to it (the commit skips it). */
void jbd2_journal_forget(journal_t *j, struct buffer_head *bh)
{
	spin_lock(&j->j_state_lock);
	if (buffer_jdirty(bh)) {
		clear_buffer_jdirty(bh);
		j->j_running_transaction->t_nr_buffers--;
	}
	spin_unlock(&j->j_state_lock);
}
