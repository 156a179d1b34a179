/*
 * ext4 writing through its journal (fs/jbd2/): the family hooks fs/ext2/ calls around each
 * change, and what a commit asks of the filesystem.
 *
 * - A read-write mount of an image with a journal loads it (replayed already, if it
 *   needed it: journal.c), sets needs_recovery in the superblock (written at once: a crash
 *   from here on leaves the journal to replay) and starts kjournald2 with commit= (5 s by
 *   default). Going read-only or away: the last commit, the journal empty, the flag off.
 * - Metadata buffers join the running transaction instead of being dirtied; freed ones
 *   leave it. Inodes are copied into their buffers at the commit (flush_metadata), from
 *   the list mark_inode_dirty() keeps, as Linux copies them at ext4_mark_inode_dirty();
 *   an inode leaving the cache is copied at its eviction, under its own handle.
 * - data=ordered (the default): at the commit, the data pages of the inodes that got
 *   blocks allocated written in the transaction (i_ordered_data: nodelalloc, block-mapped
 *   files) are written and waited for before the log, so no committed block can point at
 *   stale data; that data never waits behind its cgroup's io limits, which the cgroup pays
 *   afterwards (ext4_write_ordered_data()). Delayed allocation's blocks are unwritten
 *   extents until their IO is done (fs/ext2/io_end.c), so their inodes need nothing of the
 *   commit. data=writeback skips the data always. data=journal is refused.
 * - The superblock is logged with each transaction that has something else, its free
 *   counts set from the descriptors the transaction leaves, so that a replay restores
 *   counts and groups alike; changes under a handle (the orphan list) go the same way.
 *   Only the journal's own state (needs_recovery) and errors are written in place.
 */
#include "ext4.h"
#include <cgwb/jbd2.h>
#include <cgwb/blk-cgroup.h>
#include <cgwb/backing-dev.h>
#include <cgwb/rcupdate.h>
#include <cgwb/pagemap.h>
#include <cgwb/string.h>
#include <cgwb/vmalloc.h>
#include <cgwb/errno.h>

#define EXT4_DEF_COMMIT_INTERVAL_MS 5000

static journal_t *ext4_journal(struct super_block *sb)
{
	return EXT2_SB(sb)->s_journal;
}

int ext4_journal_start(struct super_block *sb)
{
	journal_t *j = ext4_journal(sb);
	handle_t *h;

	if (!j)
		return 0;
	h = jbd2_journal_start(j);
	if (IS_ERR(h)) {
		ext2_msg(sb, KERN_ERR, "error: the journal has been aborted (%d)", (int)PTR_ERR(h));
		return (int)PTR_ERR(h);
	}
	return 0;
}

void ext4_journal_stop(struct super_block *sb)
{
	journal_t *j = ext4_journal(sb);
	handle_t *h = j ? jbd2_journal_current_handle(j) : NULL;

	if (j && !WARN_ON_ONCE(!h))
		jbd2_journal_stop(j, h);
}

void ext4_dirty_metadata(struct super_block *sb, struct buffer_head *bh)
{
	journal_t *j = ext4_journal(sb);

	if (j)
		jbd2_journal_dirty_metadata(j, bh);
	else
		mark_buffer_dirty(bh);
}

void ext4_forget(struct super_block *sb, struct buffer_head *bh)
{
	if (ext4_journal(sb))
		jbd2_journal_forget(ext4_journal(sb), bh);
}

void ext4_dirty_inode(struct inode *inode)
{
	struct ext2_sb_info *sbi = EXT2_SB(inode->i_sb);
	struct ext2_inode_info *ei = EXT2_I(inode);

	if (!ei->i_loaded || (READ_ONCE(inode->i_state) & I_FREEING))
		return; /* being read or made (its creator writes it), or evicted (eviction does) */
	spin_lock(&sbi->s_journal_inodes_lock);
	if (list_empty(&ei->i_journal_list))
		list_add_tail(&ei->i_journal_list, &sbi->s_journal_inodes);
	spin_unlock(&sbi->s_journal_inodes_lock);
}

static bool ext4_take_journal_inode(struct super_block *sb, struct inode *inode)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	bool was = false;

	spin_lock(&sbi->s_journal_inodes_lock);
	if (!list_empty(&EXT2_I(inode)->i_journal_list)) {
		list_del_init(&EXT2_I(inode)->i_journal_list);
		was = true;
	}
	spin_unlock(&sbi->s_journal_inodes_lock);
	return was;
}

/*
 * Under the eviction's handle, after ext2's share of it: the inode off the list for good
 * (it is freed next), and a linked one's last state into its buffer (an unlinked one was
 * written with its deletion time already).
 */
void ext4_evict_inode(struct inode *inode)
{
	if (ext4_take_journal_inode(inode->i_sb, inode) && inode->i_nlink)
		ext2_update_inode(inode);
}

/*
 * The superblock's free counts as the transaction leaves the descriptors, logged with it:
 * a replay then restores counts that agree with the replayed groups (e2fsck finds nothing
 * to fix), as it restores the groups. Home only by the checkpoint after the commit block:
 * written in place before it, counts whose transaction a crash kept from committing would
 * stay on disk beside the groups of the one before. The free counters' sums are exact
 * here: the commit runs with no handle open, and every change to a group and its counter
 * is made under one.
 */
static void ext4_log_super(journal_t *j, struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);

	mutex_lock(&sbi->s_lock);
	sbi->s_es->s_free_blocks_count =
		cpu_to_le32((u32)percpu_counter_sum_positive(&sbi->s_freeblocks_counter));
	sbi->s_es->s_free_inodes_count =
		cpu_to_le32((u32)percpu_counter_sum_positive(&sbi->s_freeinodes_counter));
	mutex_unlock(&sbi->s_lock);
	ext2_sb_csum(sb);
	jbd2_journal_dirty_metadata(j, sbi->s_sbh);
}

/*
 * data=ordered: the data of the blocks this transaction allocated, written and waited for
 * before its log (Linux's jbd2_journal_submit_inode_data_buffers() and
 * jbd2_journal_finish_inode_data_buffers()). Every handle and every fsync of the
 * filesystem waits for the commit, so the data goes at once, pages already queued behind
 * its group's io.max or io.cost included, and its group pays for it afterwards
 * (blkcg_expedite_begin()). Linux 6.1 writes it as the root's and waits for what its group
 * holds back.
 */
static int ext4_write_ordered_data(struct inode *inode)
{
	struct address_space *mapping = inode->i_mapping;
	int err;

	blkcg_expedite_begin(inode->i_sb->s_bdev, mapping);
	err = filemap_write_and_wait(mapping);
	blkcg_expedite_end(mapping);
	return err;
}

/*
 * A transaction gathers at most this much ordered data (blocks allocated at write time:
 * block-mapped files, nodelalloc) of groups whose writes io.max or io.cost may hold back.
 * Past it, the writer asks for the commit and its next handle waits for it, as everyone's
 * does: what a commit writes of such data before its log (past the group's limit,
 * ext4_write_ordered_data()), and so what any fsync waits for beside a group held to a
 * slow rate, is this much and no more. The root's data and that of groups nothing holds
 * are not counted: the flusher writes them at the disk's speed meanwhile, and commits
 * every 2 MiB would make a plain writer's data go out synchronously (a fifth slower on
 * an ext3 image). Linux has no such bound (docs/ext4.md).
 */
#define EXT4_MAX_ORDERED_BYTES (2UL << 20)

/* Would a commit take inode's data past its group's io limits? */
static bool ext4_data_may_be_held(struct inode *inode)
{
	bool held;

	rcu_read_lock(); /* a switch may retire the wb: not before a grace period */
	held = blkcg_may_hold_writes(wb_blkcg(inode_to_wb(inode)), inode->i_sb->s_bdev->bd_disk);
	rcu_read_unlock();
	return held;
}

void ext4_ordered_data(struct inode *inode, unsigned int nblocks)
{
	struct ext2_sb_info *sbi = EXT2_SB(inode->i_sb);
	unsigned long max = EXT4_MAX_ORDERED_BYTES >> inode->i_blkbits, was;

	if (!sbi->s_journal || sbi->s_data_writeback)
		return;
	/* the commit is asked for already: no need to walk the group's limits per page */
	if (__atomic_load_n(&sbi->s_ordered_blocks, __ATOMIC_RELAXED) >= max ||
	    !ext4_data_may_be_held(inode))
		return;
	was = __atomic_fetch_add(&sbi->s_ordered_blocks, nblocks, __ATOMIC_RELAXED);
	if (was < max && was + nblocks >= max)
		jbd2_log_start_commit(sbi->s_journal);
}

/* A commit (kjournald2, the transaction locked): every listed inode into its buffer. */
static int ext4_flush_metadata(journal_t *j)
{
	struct super_block *sb = j->j_private;
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	LIST_HEAD(busy);
	int err = 0;

	/* no handle is open: nobody adds to it until the next transaction */
	__atomic_store_n(&sbi->s_ordered_blocks, 0, __ATOMIC_RELAXED);
	spin_lock(&sbi->s_journal_inodes_lock);
	while (!list_empty(&sbi->s_journal_inodes)) {
		struct ext2_inode_info *ei = list_first_entry(
			&sbi->s_journal_inodes, struct ext2_inode_info, i_journal_list);
		struct inode *inode = &ei->vfs_inode;
		bool evicted = READ_ONCE(inode->i_state) & (I_FREEING | I_WILL_FREE);

		if (evicted && inode->i_nlink) {
			/* its eviction copies it, under a handle, once the commit is over */
			list_move_tail(&ei->i_journal_list, &busy);
			continue;
		}
		/*
		 * An unlinked inode whose eviction waits for this commit goes in now: the
		 * unlink that put it on the orphan list is in this transaction, and a crash
		 * after the commit must find it unlinked, not linked and nowhere (Linux
		 * copies it in the unlink's own handle). Its data is never read again.
		 */
		list_del_init(&ei->i_journal_list);
		spin_unlock(&sbi->s_journal_inodes_lock);
		if (!evicted && !sbi->s_data_writeback && ei->i_ordered_data &&
		    !ext2_inode_delalloc(inode)) {
			/* data=ordered: its data before the commit that makes its blocks visible */
			int e = ext4_write_ordered_data(inode);
			if (e && !err)
				err = e;
		}
		ei->i_ordered_data = false;
		if (!err)
			err = ext2_update_inode(inode);
		spin_lock(&sbi->s_journal_inodes_lock);
	}
	list_splice_init(&busy, &sbi->s_journal_inodes);
	spin_unlock(&sbi->s_journal_inodes_lock);
	if (!err)
		ext2_commit_pending_frees(sb); /* before the counts go into the superblock */
	if (!err && j->j_running_transaction->t_nr_buffers)
		ext4_log_super(j, sb);
	return err;
}

static const struct jbd2_commit_ops ext4_commit_ops = {
	.flush_metadata = ext4_flush_metadata,
};

int ext4_force_commit(struct super_block *sb)
{
	journal_t *j = ext4_journal(sb);

	if (!j)
		return 1;
	if (jbd2_journal_current_handle(j))
		return 0; /* under a handle (an eviction's write_inode): the next commit has it */
	return jbd2_journal_force_commit(j);
}

static bool ext4_option_is(const char *opt, size_t len, const char *name)
{
	return len == strlen(name) && !strncmp(opt, name, len);
}

/*
 * commit=SECONDS, data=ordered|writeback, [no]delalloc, noload (norecovery),
 * [no]journal_checksum: 0 taken, -EINVAL not ours or bad. journal_checksum is taken and
 * changes nothing: the journal's checksums are what its superblock says (Debian's images
 * have csum v3, which Linux's option would not change either).
 */
int ext4_parse_option(struct super_block *sb, const char *opt, size_t len)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	unsigned int secs = 0;

	if (ext4_option_is(opt, len, "noload") || ext4_option_is(opt, len, "norecovery")) {
		sbi->s_noload = true;
		return 0;
	}
	if (ext4_option_is(opt, len, "journal_checksum") ||
	    ext4_option_is(opt, len, "nojournal_checksum"))
		return 0;

	if ((len == 8 && !strncmp(opt, "delalloc", 8)) ||
	    (len == 10 && !strncmp(opt, "nodelalloc", 10))) {
		sbi->s_nodelalloc = len == 10;
		return 0;
	}
	if (len == 12 && !strncmp(opt, "data=ordered", 12)) {
		sbi->s_data_writeback = false;
		return 0;
	}
	if (len == 14 && !strncmp(opt, "data=writeback", 14)) {
		sbi->s_data_writeback = true;
		return 0;
	}
	if (len < 8 || strncmp(opt, "commit=", 7))
		return -EINVAL;
	for (size_t i = 7; i < len; i++) {
		if (opt[i] < '0' || opt[i] > '9' || secs > 100000)
			return -EINVAL;
		secs = secs * 10 + (unsigned int)(opt[i] - '0');
	}
	/* commit=0 is the default, as Linux */
	sbi->s_commit_interval_ms = secs ? secs * 1000 : EXT4_DEF_COMMIT_INTERVAL_MS;
	return 0;
}

/* needs_recovery in the superblock, on disk now: set while the journal is live. */
static int ext4_set_recover_flag(struct super_block *sb, bool on)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);

	if (on)
		sbi->s_es->s_feature_incompat |= cpu_to_le32(EXT3_FEATURE_INCOMPAT_RECOVER);
	else
		sbi->s_es->s_feature_incompat &= ~cpu_to_le32(EXT3_FEATURE_INCOMPAT_RECOVER);
	ext2_sb_dirty(sb);
	return sync_dirty_buffer(sbi->s_sbh);
}

/*
 * The journal's blocks, mapped once: the journal inode is not kept (a reference held
 * through umount would make it a busy inode), and its map never changes while mounted.
 */
struct ext4_journal_map {
	u32 len;
	u32 pblk[];
};

static int ext4_journal_map_bmap(void *owner, u32 n, u64 *pblock)
{
	const struct ext4_journal_map *map = owner;

	if (WARN_ON_ONCE(n >= map->len))
		return -EIO;
	*pblock = map->pblk[n];
	return 0;
}

static struct ext4_journal_map *ext4_map_journal(struct super_block *sb)
{
	struct inode *inode = ext4_get_journal_inode(sb);
	struct ext4_journal_map *map;
	u32 len;
	int err = 0;

	if (IS_ERR(inode))
		return (struct ext4_journal_map *)inode;
	len = (u32)(inode->i_size >> inode->i_blkbits);
	map = kvmalloc(sizeof(*map) + (size_t)len * sizeof(u32), GFP_KERNEL);
	if (!map)
		err = -ENOMEM;
	for (u32 n = 0; !err && n < len;) {
		bool new;
		u32 bno;
		int got = ext2_get_blocks(inode, n, len - n, &bno, 0, &new);

		if (got <= 0) {
			ext2_msg(sb, KERN_ERR, "error: journal inode: block %u unmapped (%d)", n,
				 got);
			err = got ? got : -EIO;
		}
		for (int i = 0; i < got; i++)
			map->pblk[n++] = bno + (u32)i;
	}
	iput(inode);
	if (err) {
		kvfree(map);
		return ERR_PTR(err);
	}
	map->len = len;
	return map;
}

/* A read-write mount of an image with a journal: load it, start kjournald2. */
int ext4_journal_start_rw(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	struct ext4_journal_map *map;
	journal_t *j;
	int err;

	if (!(le32_to_cpu(sbi->s_es->s_feature_compat) & EXT3_FEATURE_COMPAT_HAS_JOURNAL) ||
	    sbi->s_noload)
		return 0; /* noload: metadata written in place, as without a journal */
	map = ext4_map_journal(sb);
	if (IS_ERR(map))
		return (int)PTR_ERR(map);
	j = jbd2_journal_init(sb->s_bdev, (unsigned int)sb->s_blocksize, map->len,
			      ext4_journal_map_bmap, map, sb->s_id);
	err = j ? jbd2_journal_load(j) : -ENOMEM;
	if (!err)
		err = sync_blockdev(sb->s_bdev); /* what the mount wrote in place, before the log */
	if (!err)
		err = jbd2_journal_start_thread(
			j, sbi->s_commit_interval_ms ?: EXT4_DEF_COMMIT_INTERVAL_MS,
			&ext4_commit_ops, sb);
	if (err) {
		ext2_msg(sb, KERN_ERR, "error: cannot start the journal (%d)", err);
		jbd2_journal_destroy(j);
		kvfree(map);
		return err;
	}
	spin_lock_init(&sbi->s_journal_inodes_lock);
	INIT_LIST_HEAD(&sbi->s_journal_inodes);
	WRITE_ONCE(sbi->s_journal, j);
	return ext4_set_recover_flag(sb, true);
}

/* Read-only or umount: the last commit, the journal empty, needs_recovery off. */
int ext4_journal_stop_rw(struct super_block *sb)
{
	struct ext2_sb_info *sbi = EXT2_SB(sb);
	journal_t *j = sbi->s_journal;
	int err;

	if (!j)
		return 0;
	err = jbd2_journal_stop_thread(j);
	WRITE_ONCE(sbi->s_journal, NULL);
	kvfree(j->j_owner);
	jbd2_journal_destroy(j);
	if (err)
		return err; /* needs_recovery stays: the journal is what e2fsck will replay */
	return ext4_set_recover_flag(sb, false);
}
