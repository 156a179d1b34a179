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
 * against a commit waiting for that handle. What ending it early costs is covered instead:
 * - fsync and sync wait for the inode's (the filesystem's) pending conversions before they
 *   commit (ext2_unwritten_wait, ext2_unwritten_wait_sb), so they still make the data
 *   readable after a crash; umount's sync waits for them all, so no inode is held after;
 * - reclaim keeps the pages of an inode with conversions pending (delalloc.c), so nobody
 *   re-reads zeros from the disk in the meantime;
 * - the io_end holds the inode, so it cannot be evicted before its conversion.
 *
 * A failed IO is not converted: the blocks stay unwritten (zeros) and the error is on the
 * mapping, as the pages' own completion left it. A failed conversion is an error of the
 * filesystem (logged) and of the mapping.
 */
#include "data.h"
#include <cgwb/slab.h>

/* One queue for every filesystem's waiters: umount may free the sbi the moment it sees 0. */
static DECLARE_WAIT_QUEUE_HEAD(ext2_unwritten_wq);

struct ext2_io_end *ext2_io_end_alloc(struct inode *inode)
{
	struct ext2_io_end *io;

	if (!igrab(inode))
		return NULL;
	io = kzalloc(sizeof(*io), GFP_NOFS);
	if (!io) {
		iput(inode);
		return NULL;
	}
	io->inode = inode;
	io->refs = 1;
	__atomic_fetch_add(&EXT2_I(inode)->i_unwritten, 1, __ATOMIC_SEQ_CST);
	__atomic_fetch_add(&EXT2_SB(inode->i_sb)->s_unwritten, 1, __ATOMIC_SEQ_CST);
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
		if (started)
			ext2_journal_stop(sb);
	}
	if (err) {
		ext2_msg(sb, KERN_ERR, "error %d converting unwritten extents of inode #%lu", err,
			 inode->i_ino);
		mapping_set_error(inode->i_mapping, err);
	}
	__atomic_fetch_sub(&EXT2_I(inode)->i_unwritten, 1, __ATOMIC_SEQ_CST);
	wake_up_all(&ext2_unwritten_wq);
	kfree(io);
	iput(inode); /* no handle held: an eviction here takes its own */
	/* last, so that umount (waiting for it) finds no inode held; sbi untouched after */
	__atomic_fetch_sub(&sbi->s_unwritten, 1, __ATOMIC_SEQ_CST);
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

/* fsync: the inode's written data is readable from disk (converted) before the commit. */
void ext2_unwritten_wait(struct inode *inode)
{
	wait_event(ext2_unwritten_wq,
		   !__atomic_load_n(&EXT2_I(inode)->i_unwritten, __ATOMIC_SEQ_CST));
}

/* sync, umount: the same for the whole filesystem. */
void ext2_unwritten_wait_sb(struct super_block *sb)
{
	wait_event(ext2_unwritten_wq, !__atomic_load_n(&EXT2_SB(sb)->s_unwritten, __ATOMIC_SEQ_CST));
}
