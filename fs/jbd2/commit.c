/*
 * Committing a transaction, as Linux's jbd2_journal_commit_transaction(), and kjournald2.
 *
 * The commit locks the running transaction and waits for its handles to close, has the
 * filesystem put what it keeps in memory into buffers (inodes) and, with data=ordered,
 * write the data those buffers will make visible; then it logs the transaction: the
 * journal superblock says where it starts (s_start, s_sequence), descriptor blocks name
 * each buffer's home block (tags with their checksums), the copies follow (escaped when
 * they begin with the journal's magic), the device cache is flushed, and the commit block
 * (with its checksum) is written and flushed. Only then are the buffers written home
 * (checkpoint.c), and the transaction starts over with the next id.
 *
 * The transaction stays locked from its handles' end to its checkpoint: no change can
 * reach a buffer between its copy in the log and its home write, so no frozen copies are
 * needed, and the log never holds more than one transaction (the one the superblock
 * points at), so no revoke records either: a block freed and reused as data within a
 * transaction was dropped from it (jbd2_journal_forget()). The cost: handles wait for the
 * commit's IO. A crash before the commit block leaves the previous, checkpointed state; a
 * crash after it is replayed (recovery.c here, or e2fsck), idempotently.
 */
#include "jbd2.h"
#include <cgwb/buffer_head.h>
#include <cgwb/blkdev.h>
#include <cgwb/crc32c.h>
#include <cgwb/jiffies.h>
#include <cgwb/sched.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/bug.h>
#include <cgwb/errno.h>

static u32 jbd2_csum_superblock_set(journal_superblock_t *sb)
{
	unsigned int off = __builtin_offsetof(journal_superblock_t, s_checksum);
	const u32 zero = 0;
	u32 crc = crc32c(~0u, sb, off);

	crc = crc32c(crc, &zero, sizeof(zero));
	crc = crc32c(crc, (const u8 *)sb + off + 4, sizeof(*sb) - off - 4);
	sb->s_checksum = cpu_to_be32(crc);
	return crc;
}

/* The journal superblock: where the log starts (0: empty) and which transaction is first. */
int jbd2_write_superblock(journal_t *j, u32 start, u32 sequence)
{
	journal_superblock_t *sb = j->j_superblock;

	lock_buffer(j->j_sb_buffer);
	sb->s_start = cpu_to_be32(start);
	sb->s_sequence = cpu_to_be32(sequence);
	if (jbd2_has_csum_v2or3(j))
		jbd2_csum_superblock_set(sb);
	unlock_buffer(j->j_sb_buffer);
	mark_buffer_dirty(j->j_sb_buffer);
	return sync_dirty_buffer(j->j_sb_buffer) ?: blkdev_issue_flush(j->j_dev);
}

/* Journal block n as a buffer to fill (uptodate, its old contents not read). */
static struct buffer_head *jbd2_log_block(journal_t *j, u32 n)
{
	u64 pblock;
	int err = j->j_bmap(j->j_owner, n, &pblock);
	struct buffer_head *bh;

	if (err)
		return ERR_PTR(err);
	bh = __getblk(j->j_dev, pblock, j->j_blocksize);
	if (!bh)
		return ERR_PTR(-EIO);
	lock_buffer(bh);
	memset(bh->b_data, 0, bh->b_size);
	set_buffer_uptodate(bh);
	return bh; /* locked: the caller fills it, unlocks and dirties it */
}

static void jbd2_log_block_done(struct buffer_head *bh)
{
	unlock_buffer(bh);
	mark_buffer_dirty(bh);
	brelse(bh);
}

struct jbd2_log_writer {
	journal_t *j;
	transaction_t *t;
	u32 next;                 /* the next free log block */
	struct buffer_head *desc; /* the descriptor being filled (locked) */
	unsigned int desc_off;    /* where its next tag goes */
	u8 *last_tag;
};

static int jbd2_next_log_block(struct jbd2_log_writer *w, struct buffer_head **bhp)
{
	if (w->next >= w->j->j_last)
		return -ENOSPC; /* the transaction was sized to fit: a bug if it does not */
	*bhp = jbd2_log_block(w->j, w->next);
	if (IS_ERR(*bhp))
		return (int)PTR_ERR(*bhp);
	w->next++;
	return 0;
}

static void jbd2_set_tag_flags(const journal_t *j, u8 *tag, u32 flags)
{
	if (j->j_incompat & JBD2_FEATURE_INCOMPAT_CSUM_V3)
		((journal_block_tag3_t *)tag)->t_flags |= cpu_to_be32(flags);
	else
		((journal_block_tag_t *)tag)->t_flags |= (u16)__builtin_bswap16((u16)flags);
}

/* The descriptor is full or the transaction ends: its last tag marked, its checksum set. */
static void jbd2_close_descriptor(struct jbd2_log_writer *w)
{
	journal_t *j = w->j;

	if (!w->desc)
		return;
	jbd2_set_tag_flags(j, w->last_tag, JBD2_FLAG_LAST_TAG);
	if (jbd2_has_csum_v2or3(j)) {
		unsigned int off = j->j_blocksize - sizeof(struct jbd2_journal_block_tail);
		struct jbd2_journal_block_tail *tail = (void *)(w->desc->b_data + off);

		tail->t_checksum = cpu_to_be32(jbd2_block_csum(j, w->desc->b_data, off));
	}
	jbd2_log_block_done(w->desc);
	w->desc = NULL;
}

static int jbd2_open_descriptor(struct jbd2_log_writer *w)
{
	journal_header_t *h;
	int err = jbd2_next_log_block(w, &w->desc);

	if (err) {
		w->desc = NULL;
		return err;
	}
	h = (void *)w->desc->b_data;
	h->h_magic = cpu_to_be32(JBD2_MAGIC_NUMBER);
	h->h_blocktype = cpu_to_be32(JBD2_DESCRIPTOR_BLOCK);
	h->h_sequence = cpu_to_be32(w->t->t_tid);
	w->desc_off = sizeof(*h);
	return 0;
}

/* A tag for home block blocknr whose (escaped) copy is data. */
static int jbd2_add_tag(struct jbd2_log_writer *w, u64 blocknr, const u8 *copy, bool escaped)
{
	journal_t *j = w->j;
	unsigned int tb = journal_tag_bytes(j), room;
	u32 seq = cpu_to_be32(w->t->t_tid);
	u32 crc = crc32c(crc32c(j->j_csum_seed, &seq, sizeof(seq)), copy, j->j_blocksize);
	bool first;
	u8 *tag;

	room = j->j_blocksize - (jbd2_has_csum_v2or3(j) ? sizeof(struct jbd2_journal_block_tail) : 0);
	if (w->desc && w->desc_off + tb > room)
		jbd2_close_descriptor(w);
	if (!w->desc) {
		int err = jbd2_open_descriptor(w);
		if (err)
			return err;
	}
	first = w->desc_off == sizeof(journal_header_t);
	tag = (u8 *)w->desc->b_data + w->desc_off;
	if (j->j_incompat & JBD2_FEATURE_INCOMPAT_CSUM_V3) {
		journal_block_tag3_t *t3 = (void *)tag;

		t3->t_blocknr = cpu_to_be32((u32)blocknr);
		t3->t_blocknr_high = cpu_to_be32((u32)(blocknr >> 32));
		t3->t_checksum = cpu_to_be32(crc);
	} else {
		journal_block_tag_t *t = (void *)tag;

		t->t_blocknr = cpu_to_be32((u32)blocknr);
		if (j->j_incompat & JBD2_FEATURE_INCOMPAT_CSUM_V2)
			t->t_checksum = (u16)__builtin_bswap16((u16)crc);
		if (j->j_incompat & JBD2_FEATURE_INCOMPAT_64BIT)
			t->t_blocknr_high = cpu_to_be32((u32)(blocknr >> 32));
	}
	jbd2_set_tag_flags(j, tag,
			   (first ? 0 : JBD2_FLAG_SAME_UUID) | (escaped ? JBD2_FLAG_ESCAPE : 0));
	w->last_tag = tag;
	w->desc_off += tb;
	if (first) {
		memcpy(w->desc->b_data + w->desc_off, j->j_superblock->s_uuid, 16);
		w->desc_off += 16;
	}
	return 0;
}

/* One buffer's copy into the log, after its tag (the descriptor comes first on disk). */
static int jbd2_log_buffer(struct jbd2_log_writer *w, struct buffer_head *bh)
{
	struct buffer_head *copy;
	bool escaped;
	int err;

	if (w->desc && w->desc_off + journal_tag_bytes(w->j) + sizeof(struct jbd2_journal_block_tail) >
			       w->j->j_blocksize)
		jbd2_close_descriptor(w); /* a new descriptor must precede this copy */
	if (!w->desc) {
		err = jbd2_open_descriptor(w);
		if (err)
			return err;
	}
	err = jbd2_next_log_block(w, &copy);
	if (err)
		return err;
	memcpy(copy->b_data, bh->b_data, w->j->j_blocksize);
	escaped = *(u32 *)copy->b_data == cpu_to_be32(JBD2_MAGIC_NUMBER);
	if (escaped)
		*(u32 *)copy->b_data = 0;
	err = jbd2_add_tag(w, bh->b_blocknr, (const u8 *)copy->b_data, escaped);
	jbd2_log_block_done(copy);
	return err;
}

static int jbd2_write_commit_block(journal_t *j, transaction_t *t, u32 n)
{
	struct buffer_head *bh = jbd2_log_block(j, n);
	struct commit_header *h;
	u64 now = ktime_get_real_seconds();

	if (IS_ERR(bh))
		return (int)PTR_ERR(bh);
	h = (void *)bh->b_data;
	h->h_magic = cpu_to_be32(JBD2_MAGIC_NUMBER);
	h->h_blocktype = cpu_to_be32(JBD2_COMMIT_BLOCK);
	h->h_sequence = cpu_to_be32(t->t_tid);
	h->h_commit_sec = __builtin_bswap64(now);
	if (jbd2_has_csum_v2or3(j))
		h->h_chksum[0] = cpu_to_be32(
			jbd2_block_csum(j, h, __builtin_offsetof(struct commit_header, h_chksum)));
	unlock_buffer(bh);
	mark_buffer_dirty(bh);
	n = (u32)sync_dirty_buffer(bh);
	brelse(bh);
	return (int)n ?: blkdev_issue_flush(j->j_dev);
}

/* Log t: superblock, descriptors and copies, flush, commit block, flush. */
static int jbd2_write_log(journal_t *j, transaction_t *t)
{
	struct jbd2_log_writer w = { .j = j, .t = t, .next = j->j_first };
	struct buffer_head *bh;
	int err = jbd2_write_superblock(j, j->j_first, t->t_tid);

	for (bh = t->t_buffers; bh && !err; bh = bh->b_jnext)
		if (buffer_jdirty(bh))
			err = jbd2_log_buffer(&w, bh);
	if (err) {
		if (w.desc)
			jbd2_log_block_done(w.desc);
		return err;
	}
	jbd2_close_descriptor(&w);
	err = sync_blockdev(j->j_dev) ?: blkdev_issue_flush(j->j_dev);
	if (!err && w.next >= j->j_last)
		err = -ENOSPC;
	return err ?: jbd2_write_commit_block(j, t, w.next);
}

/* Lock the running transaction: no new handle, and the open ones closed. */
static void jbd2_lock_transaction(journal_t *j)
{
	transaction_t *t = j->j_running_transaction;

	spin_lock(&j->j_state_lock);
	j->j_barrier = true;
	spin_unlock(&j->j_state_lock);
	wait_event(j->j_wait_updates, !READ_ONCE(t->t_updates));
}

static void jbd2_release_buffers(journal_t *j, transaction_t *t)
{
	struct buffer_head *bh, *next;

	spin_lock(&j->j_state_lock);
	bh = t->t_buffers;
	t->t_buffers = NULL;
	t->t_buffers_tail = &t->t_buffers;
	t->t_nr_buffers = 0;
	spin_unlock(&j->j_state_lock);
	for (; bh; bh = next) {
		next = bh->b_jnext;
		bh->b_jnext = NULL;
		clear_buffer_jdirty(bh);
		clear_buffer_jlist(bh);
		brelse(bh);
	}
}

/* The commit proper (kjournald2 only): the file's comment. */
static void jbd2_journal_commit_transaction(journal_t *j)
{
	transaction_t *t = j->j_running_transaction;
	int err;

	jbd2_lock_transaction(j);
	err = j->j_commit_ops->flush_metadata(j);
	if (!err && j->j_commit_ops->write_data)
		err = j->j_commit_ops->write_data(j);
	if (!err && t->t_nr_buffers)
		err = jbd2_write_log(j, t);
	if (!err && t->t_nr_buffers)
		err = jbd2_checkpoint(j, t);
	if (err)
		pr_err("JBD2: %s: error %d committing transaction %u: journal aborted\n",
		       j->j_devname, err, t->t_tid);
	jbd2_release_buffers(j, t);
	spin_lock(&j->j_state_lock);
	if (err && !j->j_errno)
		j->j_errno = err;
	j->j_commit_sequence = t->t_tid++;
	j->j_commits++;
	j->j_barrier = false;
	spin_unlock(&j->j_state_lock);
	wake_up_all(&j->j_wait_transaction_locked);
	wake_up_all(&j->j_wait_done_commit);
}

/* Work for kjournald2: a commit asked for, or the interval over a non-empty transaction. */
static bool jbd2_commit_wanted(journal_t *j)
{
	/* a request already met by a commit of the interval is not one any more */
	return tid_gt(READ_ONCE(j->j_commit_request), READ_ONCE(j->j_commit_sequence)) ||
	       READ_ONCE(j->j_stop);
}

static int kjournald2(void *arg)
{
	journal_t *j = arg;

	for (;;) {
		wait_event_timeout(j->j_wait_commit, jbd2_commit_wanted(j), j->j_commit_interval);
		if (READ_ONCE(j->j_running_transaction->t_nr_buffers) || jbd2_commit_wanted(j))
			jbd2_journal_commit_transaction(j);
		if (READ_ONCE(j->j_stop) && !READ_ONCE(j->j_running_transaction->t_nr_buffers))
			break;
	}
	return 0;
}

u32 jbd2_log_start_commit(journal_t *j)
{
	u32 tid;

	spin_lock(&j->j_state_lock);
	tid = j->j_running_transaction->t_tid;
	if (tid_gt(tid, j->j_commit_request))
		j->j_commit_request = tid;
	spin_unlock(&j->j_state_lock);
	wake_up(&j->j_wait_commit);
	return tid;
}

int jbd2_journal_force_commit(journal_t *j)
{
	u32 tid;

	if (WARN_ON_ONCE(jbd2_journal_current_handle(j)))
		return 0; /* its own handle would hold the commit up forever */
	tid = jbd2_log_start_commit(j);
	wait_event(j->j_wait_done_commit,
		   tid_geq(READ_ONCE(j->j_commit_sequence), tid) || READ_ONCE(j->j_errno));
	return READ_ONCE(j->j_errno);
}

int jbd2_journal_start_thread(journal_t *j, unsigned int interval_ms,
			      const struct jbd2_commit_ops *ops, void *private)
{
	transaction_t *t = kzalloc(sizeof(*t), GFP_KERNEL);

	if (!t)
		return -ENOMEM;
	spin_lock_init(&j->j_state_lock);
	INIT_LIST_HEAD(&j->j_handles);
	init_waitqueue_head(&j->j_wait_updates);
	init_waitqueue_head(&j->j_wait_transaction_locked);
	init_waitqueue_head(&j->j_wait_commit);
	init_waitqueue_head(&j->j_wait_done_commit);
	t->t_buffers = NULL;
	t->t_buffers_tail = &t->t_buffers;
	t->t_tid = be32_to_cpu(j->j_superblock->s_sequence);
	j->j_running_transaction = t;
	j->j_commit_sequence = j->j_commit_request = t->t_tid - 1;
	j->j_commit_interval = msecs_to_jiffies(interval_ms);
	/* a transaction, its descriptors and commit block fit in the log four times over */
	j->j_max_transaction_buffers = (j->j_last - j->j_first) / 4;
	j->j_commit_ops = ops;
	j->j_private = private;
	j->j_task = kthread_run(kjournald2, j, "jbd2/%s", j->j_devname);
	if (IS_ERR_OR_NULL(j->j_task)) {
		int err = j->j_task ? (int)PTR_ERR(j->j_task) : -ENOMEM;

		j->j_task = NULL;
		j->j_running_transaction = NULL;
		kfree(t);
		return err;
	}
	return 0;
}

int jbd2_journal_stop_thread(journal_t *j)
{
	int err;

	if (!j->j_task)
		return 0;
	WRITE_ONCE(j->j_stop, true);
	wake_up(&j->j_wait_commit);
	kthread_join(j->j_task);
	j->j_task = NULL;
	err = j->j_errno;
	if (!err)
		err = jbd2_write_superblock(j, 0, j->j_running_transaction->t_tid);
	kfree(j->j_running_transaction);
	j->j_running_transaction = NULL;
	return err;
}
