/*
 * The end of writeback IO into unwritten extents (Linux's ext4_end_io, ext4_end_io_rsv_work
 * in fs/ext4/page-io.c): once every bio of a writeback that carried data into unwritten
 * extents has completed, a work item converts exactly those ranges to written, under a
 * handle of its own (the family's convert_unwritten).
 *
 * Policy: the conversion runs on system_wq, in the root cgroup: it is metadata work of
 * the filesystem, nobody's IO. Page writeback ends at each bio's completion, before the
 * conversion (Linux ends it after): here a handle may wait for page writeback (truncate
 * under setattr's handle, writeback holding its handle over write_cache_pages), and a
 * conversion needs a handle, so ending writeback only after the conversion could deadlock
 * against a commit waiting for that handle. What ending it early costs is covered instead,
 * with the IOs numbered per inode and per filesystem (struct ext2_unwritten: each list
 * holds the pending ones, oldest first):
 * - fsync and sync wait, before they commit, for the conversion of every IO begun before
 *   they were called (ext2_unwritten_wait, ext2_unwritten_wait_sb), as Linux's wait for
 *   the writeback of the pages dirty when it was called: the later IOs of a writer that
 *   keeps the inode busy are not waited for; umount's sync waits for them all, so no
 *   inode is held after;
 * - reclaim keeps a page whose IO is not converted yet (the page holds its IO's number,
 *   delalloc.c), so nobody re-reads zeros from the disk in the meantime; the inode's
 *   other clean pages go as any;
 * - the io_end holds the inode, so it cannot be evicted before its conversion; an inode
 *   already on its way out (written by a flusher that started before its last iput, or
 *   by iput_final at umount) cannot be held, and its eviction waits for its conversions
 *   instead (ext2_unwritten_wait_all(), as Linux's eviction waits for the pages' writeback,
 *   which ends there only after the conversion).
 *
 * A failed IO is not converted: the blocks stay unwritten (zeros) and the error is on the
 * mapping, as the pages' own completion left it. A failed conversion is an error of the
 * filesystem (logged) and of the mapping.
 */
#include "data.h"
#include <cgwb/slab.h>

/* One queue for every filesystem's waiters: umount may free the sbi the moment it sees 0. */
static DECLARE_WAIT_QUEUE_HEAD(ext2_unwritten_wq);

void ext2_unwritten_init(struct ext2_unwritten *u)
{
	spin_lock_init(&u->lock);
	INIT_LIST_HEAD(&u->pending);
	u->last = 0;
}

static void ext2_unwritten_add(struct ext2_unwritten *u, struct ext2_io_pending *p)
{
	spin_lock(&u->lock);
	p->seq = ++u->last;
	list_add_tail(&p->node, &u->pending);
	spin_unlock(&u->lock);
}

/* The last touch of u: a waiter for all of them may free it once it sees the list empty. */
static void ext2_unwritten_del(struct ext2_unwritten *u, struct ext2_io_pending *p)
{
	spin_lock(&u->lock);
	list_del(&p->node);
	spin_unlock(&u->lock);
}

u64 ext2_unwritten_done(struct ext2_unwritten *u)
{
	u64 done;

	spin_lock(&u->lock);
	done = list_empty(&u->pending) ?
		       u->last :
		       list_first_entry(&u->pending, struct ext2_io_pending, node)->seq - 1;
	spin_unlock(&u->lock);
	return done;
}

static u64 ext2_unwritten_last(struct ext2_unwritten *u)
{
	u64 last;

	spin_lock(&u->lock);
	last = u->last;
	spin_unlock(&u->lock);
	return last;
}

/* Until every IO numbered up to now is converted; later ones are not waited for. */
static void ext2_unwritten_wait_upto(struct ext2_unwritten *u)
{
	u64 upto = ext2_unwritten_last(u);

	wait_event(ext2_unwritten_wq, ext2_unwritten_done(u) >= upto);
}

struct ext2_io_end *ext2_io_end_alloc(struct inode *inode)
{
	/* small, and writeback has no better way out (integrity writeback would retry) */
	struct ext2_io_end *io = kzalloc(sizeof(*io), GFP_NOFS | __GFP_NOFAIL);

	io->inode = inode;
	io->holds_inode = igrab(inode) != NULL; /* if not: it is being evicted, which waits */
	io->refs = 1;
	ext2_unwritten_add(&EXT2_I(inode)->i_unwritten, &io->in_inode);
	ext2_unwritten_add(&EXT2_SB(inode->i_sb)->s_unwritten, &io->in_sb);
	return io;
}

bool ext2_io_end_add(struct ext2_io_end *io, u32 lblk, u32 len)
{
	if (io->nr && io->range[io->nr - 1].lblk + io->range[io->nr - 1].len == lblk) {
		io->range[io->nr - 1].len += len;
		return true;
	}
	if (io->nr == EXT2_IO_END_RANGES)
		return false;
	io->range[io->nr].lblk = lblk;
	io->range[io->nr++].len = len;
	return true;
}

void ext2_io_end_get(struct ext2_io_end *io)
{
	__atomic_fetch_add(&io->refs, 1, __ATOMIC_SEQ_CST);
}

/* Where the written ranges end, in bytes. */
static loff_t ext2_io_end_last_byte(const struct ext2_io_end *io)
{
	u32 end = 0;

	for (unsigned int i = 0; i < io->nr; i++)
		end = max(end, io->range[i].lblk + io->range[i].len);
	return (loff_t)end << io->inode->i_blkbits;
}

static void ext2_end_io_work(struct work_struct *work)
{
	struct ext2_io_end *io = container_of(work, struct ext2_io_end, work);
	struct inode *inode = io->inode;
	struct super_block *sb = inode->i_sb;
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	int err = 0;

	if (!io->err && io->nr) {
		err = ext2_journal_start(sb);
		bool started = !err;

		for (unsigned int i = 0; !err && i < io->nr; i++)
			err = sbi->s_family->convert_unwritten(inode, io->range[i].lblk,
							       io->range[i].len);
		if (!err) /* the data is readable: the size may say so, in the same handle */
			ext2_update_disksize(inode, ext2_io_end_last_byte(io));
		if (started)
			ext2_journal_stop(sb);
	}
	if (err) {
		ext2_msg(sb, KERN_ERR, "error %d converting unwritten extents of inode #%lu", err,
			 inode->i_ino);
		mapping_set_error(inode->i_mapping, err);
	}
	ext2_unwritten_del(&EXT2_I(inode)->i_unwritten, &io->in_inode);
	wake_up_all(&ext2_unwritten_wq);
	if (io->holds_inode)
		iput(inode); /* no handle held: an eviction here takes its own */
	/* last, so that umount (waiting for it) finds no inode held; sbi untouched after */
	ext2_unwritten_del(&sbi->s_unwritten, &io->in_sb);
	kfree(io);
	wake_up_all(&ext2_unwritten_wq);
}

void ext2_io_end_put(struct ext2_io_end *io, int err)
{
	if (err)
		__atomic_compare_exchange_n(&io->err, &(int){ 0 }, err, false, __ATOMIC_SEQ_CST,
					    __ATOMIC_SEQ_CST);
	if (__atomic_sub_fetch(&io->refs, 1, __ATOMIC_SEQ_CST))
		return;
	INIT_WORK(&io->work, ext2_end_io_work);
	queue_work(system_wq, &io->work);
}

void ext2_unwritten_wait_all(struct inode *inode)
{
	struct ext2_unwritten *u = &EXT2_I(inode)->i_unwritten;

	wait_event(ext2_unwritten_wq, ext2_unwritten_done(u) == ext2_unwritten_last(u));
}

void ext2_unwritten_wait(struct inode *inode)
{
	ext2_unwritten_wait_upto(&EXT2_I(inode)->i_unwritten);
}

void ext2_unwritten_wait_sb(struct super_block *sb)
{
	ext2_unwritten_wait_upto(&EXT2_SB(sb)->s_unwritten);
}
