/*
 * The inode cache.
 *
 * Every inode is on its superblock's s_inodes list; those with an on-disk identity are also
 * in the superblock's hash (iget_locked finds them). i_count counts references (dentries,
 * open files through their dentry, writeback's igrab). At the last iput an inode that the
 * filesystem still wants (linked, hashed, superblock active) stays cached on the sb's LRU;
 * otherwise it is evicted: I_FREEING, off the writeback lists, writeback waited for, pages
 * truncated, the filesystem's evict_inode, off the hash, freed.
 *
 * Unused inodes sit on the LRU whatever their dirtiness: prune_icache skips the dirty and
 * the ones under writeback (the flusher cleans them; a later pass frees them) and drops
 * the page cache of clean ones before freeing them.
 */
#include <cgwb/fs.h>
#include <cgwb/backing-dev.h>
#include <cgwb/writeback.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/jiffies.h>
#include <cgwb/printk.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include "vfs.h"

static DEFINE_SPINLOCK(inode_hash_lock);
/* I_NEW cleared, or an inode left the hash (evict_seq moved): iget_locked waiters recheck */
static DECLARE_WAIT_QUEUE_HEAD(inode_state_wq);
static unsigned long evict_seq;
static unsigned long nr_inodes;
static unsigned long last_ino;

static const struct address_space_operations empty_aops;
static const struct inode_operations empty_iops;

unsigned long get_next_ino(void)
{
	return __atomic_add_fetch(&last_ino, 1, __ATOMIC_RELAXED);
}

unsigned long nr_inodes_cached(void)
{
	return READ_ONCE(nr_inodes);
}

static void inode_init_always(struct super_block *sb, struct inode *inode)
{
	memset(inode, 0, sizeof(*inode));
	inode->i_sb = sb;
	inode->i_blkbits = sb->s_blocksize_bits ? sb->s_blocksize_bits : PAGE_SHIFT;
	inode->i_count = 1;
	inode->i_nlink = 1;
	inode->i_op = &empty_iops;
	spin_lock_init(&inode->i_lock);
	inode->i_lock.name = "inode->i_lock";
	init_rwsem(&inode->i_rwsem);
	INIT_HLIST_NODE(&inode->i_hash);
	INIT_LIST_HEAD(&inode->i_sb_list);
	INIT_LIST_HEAD(&inode->i_lru);
	INIT_LIST_HEAD(&inode->i_wb_list);
	INIT_LIST_HEAD(&inode->i_io_list);
	address_space_init(&inode->i_data, inode);
	inode->i_data.a_ops = &empty_aops;
	inode->i_mapping = &inode->i_data;
}

static struct inode *alloc_inode(struct super_block *sb)
{
	struct inode *inode;

	if (sb->s_op && sb->s_op->alloc_inode)
		inode = sb->s_op->alloc_inode(sb);
	else
		inode = kmalloc(sizeof(*inode), GFP_KERNEL);
	if (!inode)
		return NULL;
	inode_init_always(sb, inode);
	__atomic_add_fetch(&nr_inodes, 1, __ATOMIC_RELAXED);
	return inode;
}

static void destroy_inode(struct inode *inode)
{
	__atomic_sub_fetch(&nr_inodes, 1, __ATOMIC_RELAXED);
	if (inode->i_sb->s_op && inode->i_sb->s_op->destroy_inode)
		inode->i_sb->s_op->destroy_inode(inode);
	else
		kfree(inode);
}

static void inode_sb_list_add(struct inode *inode)
{
	struct super_block *sb = inode->i_sb;

	spin_lock(&sb->s_inode_list_lock);
	list_add(&inode->i_sb_list, &sb->s_inodes);
	spin_unlock(&sb->s_inode_list_lock);
}

static void inode_sb_list_del(struct inode *inode)
{
	struct super_block *sb = inode->i_sb;

	spin_lock(&sb->s_inode_list_lock);
	list_del_init(&inode->i_sb_list);
	spin_unlock(&sb->s_inode_list_lock);
}

/* i_lock held. */
static void inode_lru_list_add(struct inode *inode)
{
	struct super_block *sb = inode->i_sb;

	spin_lock(&sb->s_inode_lru_lock);
	if (list_empty(&inode->i_lru)) {
		list_add(&inode->i_lru, &sb->s_inode_lru);
		sb->s_nr_inodes_unused++;
	}
	spin_unlock(&sb->s_inode_lru_lock);
}

/* s_inode_lru_lock held. */
static void __inode_lru_list_del(struct inode *inode)
{
	if (!list_empty(&inode->i_lru)) {
		list_del_init(&inode->i_lru);
		inode->i_sb->s_nr_inodes_unused--;
	}
}

static void inode_lru_list_del(struct inode *inode)
{
	spin_lock(&inode->i_sb->s_inode_lru_lock);
	__inode_lru_list_del(inode);
	spin_unlock(&inode->i_sb->s_inode_lru_lock);
}

/* A new reference. i_lock held. */
static void __iget(struct inode *inode)
{
	if (inode->i_count++ == 0)
		inode_lru_list_del(inode);
}

struct inode *new_inode(struct super_block *sb)
{
	struct inode *inode = alloc_inode(sb);

	if (inode)
		inode_sb_list_add(inode);
	return inode;
}

static struct hlist_head *inode_hashtable(struct super_block *sb, unsigned long ino)
{
	u64 h = (u64)ino * 0x9e3779b97f4a7c15ULL;

	return &sb->s_inode_hash[(h >> 32) & ((1U << sb->s_inode_hash_bits) - 1)];
}

static struct inode *find_inode_fast(struct super_block *sb, unsigned long ino)
{
	struct inode *inode;

	hlist_for_each_entry(inode, inode_hashtable(sb, ino),
			     i_hash) if (inode->i_ino == ino && inode->i_sb == sb) return inode;
	return NULL;
}

/*
 * Take a reference on a hashed inode found under inode_hash_lock, which this drops. Returns
 * false (after waiting for it to go) if the inode is being freed.
 */
static bool grab_found_inode(struct inode *inode)
{
	spin_lock(&inode->i_lock);
	if (inode->i_state & (I_FREEING | I_WILL_FREE)) {
		unsigned long seq = evict_seq;

		spin_unlock(&inode->i_lock);
		spin_unlock(&inode_hash_lock);
		wait_event(inode_state_wq, READ_ONCE(evict_seq) != seq);
		return false;
	}
	__iget(inode);
	spin_unlock(&inode->i_lock);
	spin_unlock(&inode_hash_lock);
	wait_event(inode_state_wq, !(READ_ONCE(inode->i_state) & I_NEW));
	if (inode_unhashed(inode)) {
		/* its filesystem failed to read it (iget_failed): try again from scratch */
		iput(inode);
		return false;
	}
	return true;
}

struct inode *iget_locked(struct super_block *sb, unsigned long ino)
{
	struct inode *inode, *fresh;

	for (;;) {
		spin_lock(&inode_hash_lock);
		inode = find_inode_fast(sb, ino);
		if (inode) {
			if (grab_found_inode(inode))
				return inode;
			continue;
		}
		spin_unlock(&inode_hash_lock);

		fresh = alloc_inode(sb);
		if (!fresh)
			return NULL;
		spin_lock(&inode_hash_lock);
		if (find_inode_fast(sb, ino)) {
			/* someone else read it meanwhile: use theirs */
			spin_unlock(&inode_hash_lock);
			destroy_inode(fresh);
			continue;
		}
		fresh->i_ino = ino;
		fresh->i_state = I_NEW;
		hlist_add_head(&fresh->i_hash, inode_hashtable(sb, ino));
		spin_unlock(&inode_hash_lock);
		inode_sb_list_add(fresh);
		return fresh;
	}
}

bool icache_has_live_inode(struct super_block *sb, unsigned long ino)
{
	struct inode *inode;
	bool live;

	spin_lock(&inode_hash_lock);
	inode = find_inode_fast(sb, ino);
	/* one being evicted gave its number back already: that number is free */
	live = inode && !(READ_ONCE(inode->i_state) & (I_FREEING | I_WILL_FREE));
	spin_unlock(&inode_hash_lock);
	return live;
}

void unlock_new_inode(struct inode *inode)
{
	spin_lock(&inode->i_lock);
	WARN_ON(!(inode->i_state & I_NEW));
	inode->i_state &= ~I_NEW;
	spin_unlock(&inode->i_lock);
	wake_up_all(&inode_state_wq);
}

static const struct inode_operations bad_inode_ops;

void make_bad_inode(struct inode *inode)
{
	remove_inode_hash(inode);
	inode->i_mode = S_IFREG;
	inode->i_op = &bad_inode_ops;
	inode->i_fop = NULL;
}

bool is_bad_inode(const struct inode *inode)
{
	return inode->i_op == &bad_inode_ops;
}

void iget_failed(struct inode *inode)
{
	make_bad_inode(inode);
	unlock_new_inode(inode);
	iput(inode);
}

void insert_inode_hash(struct inode *inode)
{
	spin_lock(&inode_hash_lock);
	if (inode_unhashed(inode))
		hlist_add_head(&inode->i_hash, inode_hashtable(inode->i_sb, inode->i_ino));
	spin_unlock(&inode_hash_lock);
}

void remove_inode_hash(struct inode *inode)
{
	spin_lock(&inode_hash_lock);
	hlist_del_init(&inode->i_hash);
	evict_seq++;
	spin_unlock(&inode_hash_lock);
	wake_up_all(&inode_state_wq);
}

void ihold(struct inode *inode)
{
	spin_lock(&inode->i_lock);
	WARN_ON(inode->i_count < 1);
	inode->i_count++;
	spin_unlock(&inode->i_lock);
}

/* i_lock held. */
static struct inode *__igrab(struct inode *inode)
{
	if (inode->i_state & (I_FREEING | I_WILL_FREE))
		return NULL;
	__iget(inode);
	return inode;
}

struct inode *igrab_trylock(struct inode *inode, bool *busy)
{
	struct inode *got;

	*busy = !spin_trylock(&inode->i_lock);
	if (*busy)
		return NULL;
	got = __igrab(inode);
	spin_unlock(&inode->i_lock);
	return got;
}

struct inode *igrab(struct inode *inode)
{
	struct inode *got;

	spin_lock(&inode->i_lock);
	got = __igrab(inode);
	spin_unlock(&inode->i_lock);
	return got;
}

int generic_drop_inode(struct inode *inode)
{
	return !inode->i_nlink || inode_unhashed(inode);
}

/*
 * The inode's pages and writeback state go before the filesystem frees it: Linux's
 * clear_inode, plus truncation of pages an evict_inode left behind.
 */
void clear_inode(struct inode *inode)
{
	BUG_ON(!(inode->i_state & I_FREEING));
	BUG_ON(inode->i_state & I_CLEAR);
	inode_wait_for_writeback(inode);
	if (WARN_ON_ONCE(inode->i_data.nrpages))
		truncate_inode_pages(&inode->i_data, 0);
	WARN_ON_ONCE(!list_empty(&inode->i_data.private_list));
	WARN_ON_ONCE(!list_empty(&inode->i_wb_list));
	inode->i_state = I_FREEING | I_CLEAR;
}

void evict(struct inode *inode)
{
	const struct super_operations *op = inode->i_sb->s_op;

	BUG_ON(!(inode->i_state & I_FREEING));
	BUG_ON(!list_empty(&inode->i_lru));
	inode_io_list_del(inode);
	inode_sb_list_del(inode);
	inode_wait_for_writeback(inode);
	truncate_inode_pages(&inode->i_data, 0);
	if (op && op->evict_inode)
		op->evict_inode(inode);
	if (!(inode->i_state & I_CLEAR))
		clear_inode(inode);
	inode_detach_wb(inode);
	remove_inode_hash(inode);
	destroy_inode(inode);
}

/* The last reference went. i_lock held on entry, dropped. */
static void iput_final(struct inode *inode)
{
	struct super_block *sb = inode->i_sb;
	const struct super_operations *op = sb->s_op;
	int drop = op && op->drop_inode ? op->drop_inode(inode) : generic_drop_inode(inode);

	if (!drop && (sb->s_flags & SB_ACTIVE) && !(inode->i_state & I_NEW)) {
		inode->i_state |= I_REFERENCED;
		inode_lru_list_add(inode);
		spin_unlock(&inode->i_lock);
		return;
	}
	if (!drop && inode->i_nlink) {
		/* still linked but its filesystem is going away: write it out first */
		inode->i_state |= I_WILL_FREE;
		spin_unlock(&inode->i_lock);
		write_inode_now(inode, 1);
		spin_lock(&inode->i_lock);
		inode->i_state &= ~I_WILL_FREE;
	}
	inode->i_state |= I_FREEING;
	spin_unlock(&inode->i_lock);
	inode_lru_list_del(inode);
	evict(inode);
}

void iput(struct inode *inode)
{
	if (!inode)
		return;
	spin_lock(&inode->i_lock);
	if (inode->i_count <= 0)
		panic("iput: inode %lu of %s has count %d", inode->i_ino, inode->i_sb->s_id,
		      inode->i_count);
	if (--inode->i_count > 0) {
		spin_unlock(&inode->i_lock);
		return;
	}
	iput_final(inode);
}

static void dispose_list(struct list_head *head)
{
	while (!list_empty(head)) {
		struct inode *inode = list_first_entry(head, struct inode, i_lru);

		list_del_init(&inode->i_lru);
		evict(inode);
		cond_resched();
	}
}

int evict_inodes(struct super_block *sb)
{
	struct inode *inode, *next;
	LIST_HEAD(dispose);
	int busy = 0;

	spin_lock(&sb->s_inode_list_lock);
	list_for_each_entry_safe(inode, next, &sb->s_inodes, i_sb_list) {
		spin_lock(&inode->i_lock);
		if (inode->i_count) {
			busy++;
		} else if (!(inode->i_state & (I_NEW | I_FREEING | I_WILL_FREE))) {
			inode->i_state |= I_FREEING;
			inode_lru_list_del(inode);
			list_add(&inode->i_lru, &dispose);
		}
		spin_unlock(&inode->i_lock);
	}
	spin_unlock(&sb->s_inode_list_lock);
	dispose_list(&dispose);
	return busy;
}

/* Drop the clean page cache of an unused inode so it can be freed. */
static unsigned long inode_drop_pages(struct inode *inode)
{
	unsigned long dropped = invalidate_mapping_pages(&inode->i_data, 0, ~0UL);

	iput(inode);
	return dropped;
}

/*
 * One pass over sb's LRU, from the cold end: returns inodes freed. Dirty inodes and those
 * under writeback rotate; recently used ones get a second chance; clean ones with pages
 * have their pages dropped first.
 */
static unsigned long prune_icache_sb(struct super_block *sb, unsigned long nr)
{
	unsigned long scan = nr, freed = 0;
	LIST_HEAD(freeable);

	spin_lock(&sb->s_inode_lru_lock);
	while (scan-- && !list_empty(&sb->s_inode_lru)) {
		struct inode *inode = list_last_entry(&sb->s_inode_lru, struct inode, i_lru);

		if (!spin_trylock(&inode->i_lock)) {
			list_move(&inode->i_lru, &sb->s_inode_lru);
			continue;
		}
		if (inode->i_count || (inode->i_state & (I_NEW | I_FREEING | I_WILL_FREE))) {
			__inode_lru_list_del(inode);
			spin_unlock(&inode->i_lock);
			continue;
		}
		if (inode->i_state & (I_REFERENCED | I_DIRTY_ALL | I_SYNC)) {
			inode->i_state &= ~I_REFERENCED;
			list_move(&inode->i_lru, &sb->s_inode_lru);
			spin_unlock(&inode->i_lock);
			continue;
		}
		if (inode->i_data.nrpages) {
			inode->i_count++;
			__inode_lru_list_del(inode);
			spin_unlock(&inode->i_lock);
			spin_unlock(&sb->s_inode_lru_lock);
			inode_drop_pages(inode);
			spin_lock(&sb->s_inode_lru_lock);
			continue;
		}
		inode->i_state |= I_FREEING;
		__inode_lru_list_del(inode);
		list_add(&inode->i_lru, &freeable);
		spin_unlock(&inode->i_lock);
		freed++;
	}
	spin_unlock(&sb->s_inode_lru_lock);
	dispose_list(&freeable);
	return freed;
}

struct prune_ctx {
	unsigned long nr, freed;
};

static void prune_one_sb(struct super_block *sb, void *arg)
{
	struct prune_ctx *ctx = arg;

	if (ctx->freed < ctx->nr)
		ctx->freed += prune_icache_sb(sb, ctx->nr - ctx->freed);
}

unsigned long prune_icache(unsigned long nr)
{
	struct prune_ctx ctx = { .nr = nr };

	iterate_supers_trylock(prune_one_sb, &ctx);
	return ctx.freed;
}

/* ---------------------------------------------------------------- attributes */

void clear_nlink(struct inode *inode)
{
	inode->i_nlink = 0;
}

void set_nlink(struct inode *inode, unsigned int nlink)
{
	inode->i_nlink = nlink;
}

void inc_nlink(struct inode *inode)
{
	inode->i_nlink++;
}

void drop_nlink(struct inode *inode)
{
	if (WARN_ON(inode->i_nlink == 0))
		return;
	inode->i_nlink--;
}

void inode_init_owner(struct inode *inode, const struct inode *dir, umode_t mode)
{
	inode->i_uid = 0;
	inode->i_gid = dir ? dir->i_gid : 0;
	inode->i_mode = mode;
}

/* One read of the real-time clock: its seconds and nanoseconds belong together. */
struct timespec64 current_time(struct inode *inode)
{
	u64 ns = ktime_get_real_ns();
	struct timespec64 now = {
		.tv_sec = (s64)(ns / NSEC_PER_SEC),
		.tv_nsec = (long)(ns % NSEC_PER_SEC),
	};

	(void)inode;
	return now;
}

void inode_set_bytes(struct inode *inode, loff_t bytes)
{
	inode->i_blocks = (u64)bytes >> 9;
}

void generic_fillattr(struct inode *inode, struct kstat *stat)
{
	stat->dev = inode->i_sb->s_dev;
	stat->ino = inode->i_ino;
	stat->mode = inode->i_mode;
	stat->nlink = inode->i_nlink;
	stat->uid = inode->i_uid;
	stat->gid = inode->i_gid;
	stat->rdev = inode->i_rdev;
	stat->size = inode->i_size;
	stat->blocks = inode->i_blocks;
	stat->blksize = 1U << inode->i_blkbits;
	stat->atime = inode->i_atime;
	stat->mtime = inode->i_mtime;
	stat->ctime = inode->i_ctime;
}

void truncate_setsize(struct inode *inode, loff_t newsize)
{
	loff_t oldsize = inode->i_size;

	inode->i_size = newsize;
	if (newsize < oldsize)
		truncate_inode_pages(inode->i_mapping, newsize);
}

void init_special_inode(struct inode *inode, umode_t mode, dev_t rdev)
{
	inode->i_mode = mode;
	inode->i_rdev = rdev;
	if (S_ISCHR(mode))
		inode->i_fop = &def_chr_fops;
	else if (S_ISBLK(mode))
		inode->i_fop = &def_blk_fops;
	else
		pr_warn("init_special_inode: bogus mode %o for inode %lu\n", mode, inode->i_ino);
}

void file_update_time(struct file *file)
{
	struct inode *inode = file->f_mapping->host;

	inode->i_mtime = inode->i_ctime = current_time(inode);
	/* Linux's generic_update_time(): with lazytime only the in-memory times are dirty */
	if (inode->i_sb->s_flags & SB_LAZYTIME)
		__mark_inode_dirty(inode, I_DIRTY_TIME);
	else
		mark_inode_dirty_sync(inode);
}
