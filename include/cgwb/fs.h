/*
 * The VFS: superblocks, inodes, dentries, mounts and path lookup, in Linux's shape.
 *
 * Lifetimes: an inode lives in its superblock's inode cache while referenced (i_count) or
 * dirty or cached; iput() of the last reference keeps a clean linked inode cached (on the
 * superblock's LRU, reclaimable) and evicts an unlinked one at once. A dentry names an
 * inode under a parent dentry; dentries are cached while referenced and kept (unused) for
 * reuse until memory pressure prunes them.
 *
 * Writeback state of an inode (i_state's I_DIRTY_* bits, i_wb, i_io_list, dirtied_when and
 * the foreign-owner history) belongs to fs/fs-writeback.c; see include/cgwb/writeback.h.
 */
#ifndef CGWB_FS_H
#define CGWB_FS_H

#include <cgwb/file.h>
#include <cgwb/list.h>
#include <cgwb/mutex.h>
#include <cgwb/pagemap.h>

struct super_block;
struct inode;
struct dentry;
struct vfsmount;
struct kstatfs;
struct iattr;
struct writeback_control;
struct bdi_writeback;
struct backing_dev_info;
struct block_device;
struct file_system_type;

typedef unsigned int umode_t;

/* mode bits, Linux's values */
#define S_IFMT 0170000
#define S_IFSOCK 0140000
#define S_IFLNK 0120000
#define S_IFREG 0100000
#define S_IFBLK 0060000
#define S_IFDIR 0040000
#define S_IFCHR 0020000
#define S_IFIFO 0010000
#define S_ISLNK(m) (((m)&S_IFMT) == S_IFLNK)
#define S_ISREG(m) (((m)&S_IFMT) == S_IFREG)
#define S_ISDIR(m) (((m)&S_IFMT) == S_IFDIR)
#define S_ISCHR(m) (((m)&S_IFMT) == S_IFCHR)
#define S_ISBLK(m) (((m)&S_IFMT) == S_IFBLK)
#define S_ISFIFO(m) (((m)&S_IFMT) == S_IFIFO)

#define NAME_MAX 255
#define PATH_MAX 4096
#define MAX_SYMLINK_DEPTH 8

struct timespec64 {
	s64 tv_sec;
	long tv_nsec;
};

/* i_state bits */
#define I_DIRTY_SYNC (1U << 0)     /* inode metadata dirty */
#define I_DIRTY_DATASYNC (1U << 1) /* metadata needed by fdatasync dirty (size, blocks) */
#define I_DIRTY_PAGES (1U << 2)    /* the mapping has dirty pages */
#define I_NEW (1U << 3)            /* being set up by the filesystem */
#define I_WILL_FREE (1U << 4)
#define I_FREEING (1U << 5) /* being evicted */
#define I_CLEAR (1U << 6)
#define I_SYNC (1U << 7) /* being written back */
#define I_REFERENCED (1U << 8)
#define I_DIRTY_TIME (1U << 11)  /* only lazy timestamps dirty */
#define I_WB_SWITCH (1U << 13)   /* a switch to another wb is pending */
#define I_SYNC_QUEUED (1U << 17) /* the flusher moved it to b_io: placement is the flusher's */
#define I_DIRTY_INODE (I_DIRTY_SYNC | I_DIRTY_DATASYNC)
#define I_DIRTY (I_DIRTY_INODE | I_DIRTY_PAGES)
#define I_DIRTY_ALL (I_DIRTY | I_DIRTY_TIME)

struct inode_operations {
	struct dentry *(*lookup)(struct inode *dir, struct dentry *dentry);
	int (*create)(struct inode *dir, struct dentry *dentry, umode_t mode);
	int (*mkdir)(struct inode *dir, struct dentry *dentry, umode_t mode);
	int (*rmdir)(struct inode *dir, struct dentry *dentry);
	int (*unlink)(struct inode *dir, struct dentry *dentry);
	int (*link)(struct dentry *old, struct inode *dir, struct dentry *dentry);
	int (*symlink)(struct inode *dir, struct dentry *dentry, const char *target);
	int (*mknod)(struct inode *dir, struct dentry *dentry, umode_t mode, dev_t dev);
	int (*rename)(struct inode *old_dir, struct dentry *old_dentry, struct inode *new_dir,
		      struct dentry *new_dentry);
	/* the target of a symlink into buf (NUL-terminated); length or -errno */
	int (*readlink)(struct dentry *dentry, char *buf, int size);
	/* size changes (truncate/extend) and timestamps: attr->ia_valid says which */
	int (*setattr)(struct dentry *dentry, struct iattr *attr);
};

#define ATTR_MODE (1U << 0)
#define ATTR_SIZE (1U << 3)
#define ATTR_ATIME (1U << 4)
#define ATTR_MTIME (1U << 5)
#define ATTR_CTIME (1U << 6)

struct iattr {
	unsigned int ia_valid;
	umode_t ia_mode;
	loff_t ia_size;
	struct timespec64 ia_atime, ia_mtime, ia_ctime;
};

struct kstat {
	dev_t dev;
	unsigned long ino;
	umode_t mode;
	unsigned int nlink;
	u32 uid, gid;
	dev_t rdev;
	loff_t size;
	u64 blocks; /* 512-byte units */
	unsigned int blksize;
	struct timespec64 atime, mtime, ctime;
};

struct kstatfs {
	long f_type;
	long f_bsize;
	u64 f_blocks, f_bfree, f_bavail;
	u64 f_files, f_ffree;
	long f_namelen;
};

struct super_operations {
	struct inode *(*alloc_inode)(struct super_block *sb);
	void (*destroy_inode)(struct inode *inode);
	/* mark_inode_dirty() of inode metadata: the filesystem may copy it to its buffers */
	void (*dirty_inode)(struct inode *inode, int flags);
	int (*write_inode)(struct inode *inode, struct writeback_control *wbc);
	/* last reference dropped: return 1 to evict now (unlinked or not cacheable) */
	int (*drop_inode)(struct inode *inode);
	/* release the inode's on-disk resources if unlinked; pages are already gone */
	void (*evict_inode)(struct inode *inode);
	void (*put_super)(struct super_block *sb);
	int (*sync_fs)(struct super_block *sb, int wait);
	int (*statfs)(struct dentry *dentry, struct kstatfs *buf);
	int (*remount_fs)(struct super_block *sb, int *flags, char *data);
	/* a line of mount options for /proc/mounts (without leading comma); may be NULL */
	int (*show_options)(struct super_block *sb, char *buf, size_t size);
};

/* s_flags */
#define SB_RDONLY (1U << 0)
#define SB_LAZYTIME (1U << 25) /* timestamps lazily written: I_DIRTY_TIME (mount -o lazytime) */
#define SB_ACTIVE (1U << 30)
/* s_iflags */
#define SB_I_CGROUPWB 0x00000001 /* the filesystem supports cgroup writeback */
#define SB_I_BDEV 0x00000002     /* the block devices' superblock: each inode a disk's */

struct super_block {
	struct list_head s_list; /* all superblocks */
	dev_t s_dev;
	unsigned long s_blocksize;
	unsigned char s_blocksize_bits;
	loff_t s_maxbytes;
	struct file_system_type *s_type;
	const struct super_operations *s_op;
	unsigned long s_flags;
	unsigned long s_iflags;
	unsigned long s_magic;
	struct dentry *s_root;
	struct rw_semaphore s_umount; /* writeback takes it shared (trylock) */
	int s_count;                  /* active mounts */
	struct block_device *s_bdev;
	struct backing_dev_info *s_bdi;
	char s_id[32]; /* "vda", "tmpfs", ... */
	void *s_fs_info;
	spinlock_t s_inode_list_lock;
	struct list_head s_inodes;    /* every inode of this superblock */
	struct list_head s_inode_lru; /* unused, clean inodes: reclaimable */
	spinlock_t s_inode_lru_lock;  /* the LRU and its count; taken inside i_lock */
	unsigned long s_nr_inodes_unused;
	spinlock_t s_inode_wblist_lock; /* s_inodes_wb; irq-safe: writeback completion uses it */
	struct list_head s_inodes_wb;   /* inodes with pages under writeback (sync waits) */
	struct mutex s_sync_lock;
	/* inode hash: small, per superblock */
	struct hlist_head *s_inode_hash;
	unsigned int s_inode_hash_bits;
	const struct dentry_operations *s_d_op; /* given to every new dentry */
	int s_passive;                          /* pins the memory only (iterate_supers); sb_lock */
	int s_wb_err; /* first writeback error not reported by syncfs/umount */
};

struct inode {
	umode_t i_mode;
	unsigned int i_nlink;
	u32 i_uid, i_gid;
	dev_t i_rdev;
	loff_t i_size;
	u64 i_blocks; /* 512-byte units */
	struct timespec64 i_atime, i_mtime, i_ctime;
	unsigned int i_generation;
	unsigned long i_ino;
	unsigned int i_blkbits;
	unsigned int i_flags; /* filesystem-specific flags (S_APPEND...) */

	const struct inode_operations *i_op;
	const struct file_operations *i_fop;
	struct super_block *i_sb;
	struct address_space *i_mapping;
	struct address_space i_data;
	void *i_private;
	struct block_device *i_bdev; /* block device special file */

	spinlock_t i_lock; /* i_state, i_count, i_wb changes */
	unsigned int i_state;
	int i_count;
	struct rw_semaphore i_rwsem; /* serialises writes/truncate/directory changes */
	struct hlist_node i_hash;
	struct list_head i_sb_list;
	struct list_head i_lru;     /* sb's unused list */
	struct list_head i_wb_list; /* sb's under-writeback list (s_inode_wblist_lock) */

	/* writeback (fs/fs-writeback.c) */
	struct list_head i_io_list; /* on its wb's b_dirty, b_io, b_more_io, b_dirty_time or b_attached */
	struct bdi_writeback *i_wb; /* the wb that writes this inode back (NULL until dirtied) */
	unsigned long dirtied_when; /* jiffies of the first dirtying */
	unsigned long dirtied_time_when;
	/* foreign-owner detection (wbc_detach_inode), reset by a switch */
	int i_wb_frn_winner;   /* memcg id that won the last round */
	u16 i_wb_frn_avg_time; /* running average of a round's IO time, 1/8192 s */
	u16 i_wb_frn_history;  /* 1/8 s slots of IO time, 1: a foreign round */
	int i_wb_frn_prev;     /* memcg id of the wb the last switch left (kept) */
};

static inline bool inode_unhashed(const struct inode *inode)
{
	return hlist_unhashed(&inode->i_hash);
}

struct qstr {
	const char *name;
	unsigned int len;
};

#define DCACHE_MOUNTED 0x1 /* some mount sits on this dentry */
#define DCACHE_CURSOR 0x2  /* a readdir position marker, not a name */
#define DCACHE_LRU 0x4     /* on the unused list */
#define DCACHE_PINNED 0x8  /* the filesystem holds a reference (ramfs names) */

/* Per-filesystem dentry hooks (pseudo filesystems whose objects vanish behind the VFS). */
struct dentry_operations {
	/* Is a cached dentry still valid? 0: drop it and look the name up again. */
	int (*d_revalidate)(struct dentry *dentry);
	/* The dentry is being freed: drop d_fsdata. */
	void (*d_release)(struct dentry *dentry);
};

struct dentry {
	struct qstr d_name;
	char d_iname[32]; /* short names live here */
	struct dentry *d_parent;
	struct inode *d_inode; /* NULL: negative (being created / looked up) */
	struct super_block *d_sb;
	struct list_head d_child; /* in parent's d_subdirs */
	struct list_head d_subdirs;
	struct list_head d_lru; /* unused dentries, reclaimable */
	unsigned int d_flags;
	int d_count;
	void *d_fsdata;
	struct hlist_node d_hash; /* (parent, name) lookup; unhashed: dropped */
	const struct dentry_operations *d_op;
};

static inline bool d_unhashed(const struct dentry *dentry)
{
	return hlist_unhashed(&dentry->d_hash);
}

static inline bool d_mountpoint(const struct dentry *dentry)
{
	return READ_ONCE(dentry->d_flags) & DCACHE_MOUNTED;
}

#define MNT_READONLY 0x1

struct vfsmount {
	struct dentry *mnt_root;
	struct super_block *mnt_sb;
	struct vfsmount *mnt_parent;
	struct dentry *mnt_mountpoint;
	char mnt_devname[64];
	struct list_head mnt_list;
	int mnt_count; /* the mount tree's reference + open files, cwds, walks */
	unsigned int mnt_flags;
};

struct file_system_type {
	const char *name;
	/* build and return a superblock for dev_name (a device path, or anything for pseudo fs) */
	struct super_block *(*mount)(struct file_system_type *fs, int flags, const char *dev_name,
				     void *data);
	void (*kill_sb)(struct super_block *sb);
	bool requires_dev;
	struct list_head node;
};

/* directory reading: the filesystem calls dir_emit for each entry after ctx->pos */
struct dir_context;
typedef bool (*filldir_t)(struct dir_context *ctx, const char *name, int namelen, loff_t offset,
			  u64 ino, unsigned int type);
struct dir_context {
	filldir_t actor;
	loff_t pos;
};
/* d_type values */
#define DT_UNKNOWN 0
#define DT_FIFO 1
#define DT_CHR 2
#define DT_DIR 4
#define DT_BLK 6
#define DT_REG 8
#define DT_LNK 10
static inline bool dir_emit(struct dir_context *ctx, const char *name, int namelen, u64 ino,
			    unsigned int type)
{
	return ctx->actor(ctx, name, namelen, ctx->pos, ino, type);
}

/* ---------------------------------------------------------------- filesystem types */
/**
 * register_filesystem() - make a filesystem type mountable
 * @fs: the type, static, with its name and ->mount()
 *
 * Context: start-up, process context; never sleeps.
 * Return: 0, or -EBUSY if a type of that name is registered already.
 */
int register_filesystem(struct file_system_type *fs);
struct file_system_type *get_fs_type(const char *name);

/* ---------------------------------------------------------------- superblocks */
/**
 * alloc_super() - a new superblock, on the list of superblocks
 * @type: its filesystem type
 * @flags: its SB_* flags
 *
 * It has no device (the no-op bdi), page-sized blocks and no size limit until the
 * filesystem says otherwise. Its s_umount is held for writing until the caller's mount
 * finishes (or fails: deactivate_locked_super()).
 *
 * Context: process context; may sleep.
 * Return: the superblock, or ERR_PTR(-ENOMEM).
 */
struct super_block *alloc_super(struct file_system_type *type, int flags);
/**
 * sget_bdev() - the superblock for a block device filesystem
 * @type: the filesystem type
 * @flags: the mount's SB_* flags
 * @dev_name: the device: a /dev block special file, or a bare disk name ("vda")
 *
 * A new superblock (as alloc_super()) gets the device in s_bdev and its disk's bdi in
 * s_bdi. A device already mounted with the same type and read-only flag gives its
 * superblock instead, shared: another active reference, s_root already set, so the
 * caller fills nothing.
 *
 * Context: process context; may sleep.
 * Return: the superblock, with s_umount held for writing; or an ERR_PTR: the lookup's
 * error (-ENOENT, -ENOTBLK, -ENXIO), -EACCES to mount a read-only device read-write,
 * -EBUSY if it is mounted with another type or read-only flag, or -ENOMEM.
 */
struct super_block *sget_bdev(struct file_system_type *type, int flags, const char *dev_name);
/**
 * sb_set_blocksize() - set a block device filesystem's block size
 * @sb: the superblock, with its s_bdev
 * @size: the block size, a power of two from the device's logical block size to PAGE_SIZE
 *
 * The device's buffers take that size too (set_blocksize()).
 *
 * Context: process context, while mounting; may sleep.
 * Return: @size, or 0 if the device cannot use it.
 */
int sb_set_blocksize(struct super_block *sb, int size);
void generic_shutdown_super(struct super_block *sb);
/**
 * kill_block_super() - ->kill_sb() of block device filesystems
 * @sb: the superblock, with its last active reference gone
 *
 * generic_shutdown_super() (sync, evict every inode, ->put_super()), then writes the
 * device's dirty buffers and drops its page cache.
 *
 * Context: process context (umount); sleeps.
 */
void kill_block_super(struct super_block *sb);
/**
 * kill_anon_super() - ->kill_sb() of filesystems without a device
 * @sb: the superblock, with its last active reference gone
 *
 * Context: process context (umount); may sleep.
 */
void kill_anon_super(struct super_block *sb);
void iterate_supers(void (*fn)(struct super_block *, void *), void *arg);

/* ---------------------------------------------------------------- inodes */
/**
 * new_inode() - allocate an inode of a superblock
 * @sb: the superblock
 *
 * Through ->alloc_inode() if the filesystem has one. The inode is on the superblock's list
 * but not hashed (insert_inode_hash() makes it findable by number), with one reference.
 *
 * Context: process context; may sleep.
 * Return: the inode, or NULL if memory ran out.
 */
struct inode *new_inode(struct super_block *sb);
/**
 * iget_locked() - an inode by number: the cached one, or a new one to fill
 * @sb: the superblock
 * @ino: the inode number
 *
 * A cached inode is returned once its filesystem has filled it (I_NEW clear); one being
 * freed is waited for and looked up again. A new inode is hashed with I_NEW set: the
 * caller reads it, then calls unlock_new_inode(), or iget_failed() on error.
 *
 * Context: process context; may sleep.
 * Return: the inode with a reference, or NULL if memory ran out.
 */
struct inode *iget_locked(struct super_block *sb, unsigned long ino);
/**
 * icache_has_live_inode() - is an inode number in use in the inode cache?
 * @sb: the superblock
 * @ino: the inode number
 *
 * An inode being evicted gave its number back already: it does not count.
 *
 * Context: any context; never sleeps.
 * Return: true if inode @ino of @sb is cached and not being freed (no reference is taken).
 */
bool icache_has_live_inode(struct super_block *sb, unsigned long ino);
/**
 * unlock_new_inode() - a new inode is filled: let its other users have it
 * @inode: the inode from iget_locked(), I_NEW set
 *
 * Clears I_NEW and wakes the tasks waiting in iget_locked() for it.
 *
 * Context: any context; never sleeps.
 */
void unlock_new_inode(struct inode *inode);
/**
 * iget_failed() - the filesystem could not read a new inode
 * @inode: the inode from iget_locked(), I_NEW set
 *
 * Marks it bad, unhashes it, lets its waiters go (they look it up again) and drops the
 * caller's reference.
 *
 * Context: process context; may sleep.
 */
void iget_failed(struct inode *inode);
/**
 * ihold() - take another reference on an inode
 * @inode: the inode, on which the caller holds a reference already
 *
 * Context: any context; never sleeps.
 */
void ihold(struct inode *inode);
/**
 * iput() - drop a reference on an inode
 * @inode: the inode, or NULL
 *
 * At the last reference, an inode the filesystem keeps (->drop_inode() or
 * generic_drop_inode() says so) goes on the unused list while its filesystem is active;
 * otherwise it is evicted: written first if it is still linked, then its pages and blocks
 * released through ->evict_inode().
 *
 * Context: process context; may sleep (at the last reference).
 */
void iput(struct inode *inode);
/**
 * igrab() - take a reference on an inode unless it is being freed
 * @inode: the inode
 *
 * Context: any context; takes @inode->i_lock; never sleeps.
 * Return: @inode with a new reference, or NULL if it is being freed.
 */
struct inode *igrab(struct inode *inode);
/*
 * igrab() without waiting for i_lock, for a caller holding a lock that ranks after it (the
 * sb's writeback list): NULL with *busy set when i_lock is taken.
 */
struct inode *igrab_trylock(struct inode *inode, bool *busy);
/**
 * insert_inode_hash() - make an inode findable by its number
 * @inode: the inode, its i_ino set; nothing is done if it is hashed already
 *
 * Context: any context; never sleeps.
 */
void insert_inode_hash(struct inode *inode);
void remove_inode_hash(struct inode *inode);
/**
 * clear_nlink() - an inode has no name left
 * @inode: the inode
 *
 * Context: the caller serialises changes of the inode's links (the i_rwsem of the inode or
 * of its directory); never sleeps.
 */
void clear_nlink(struct inode *inode);
/**
 * set_nlink() - set an inode's link count
 * @inode: the inode
 * @nlink: the count (as read from disk)
 *
 * Context: as clear_nlink().
 */
void set_nlink(struct inode *inode, unsigned int nlink);
/**
 * inc_nlink() - an inode has one more name
 * @inode: the inode
 *
 * Context: as clear_nlink().
 */
void inc_nlink(struct inode *inode);
/**
 * drop_nlink() - an inode has one name less
 * @inode: the inode; one whose count is 0 already is left so, with a warning
 *
 * Context: as clear_nlink().
 */
void drop_nlink(struct inode *inode);
/**
 * inode_init_owner() - set a new inode's owner and mode
 * @inode: the new inode
 * @dir: the directory it is created in, or NULL
 * @mode: its type and permissions
 *
 * The owner is root (there are no other users); the group is @dir's, root without one.
 *
 * Context: any context; never sleeps.
 */
void inode_init_owner(struct inode *inode, const struct inode *dir, umode_t mode);
/**
 * current_time() - the time to stamp an inode with
 * @inode: the inode (unused: every filesystem has nanosecond timestamps)
 *
 * Context: any context.
 * Return: the wall-clock time.
 */
struct timespec64 current_time(struct inode *inode);
/**
 * __mark_inode_dirty() - mark an inode dirty, and queue it for writeback
 * @inode: the inode
 * @flags: what is dirty: I_DIRTY_SYNC / I_DIRTY_DATASYNC (metadata; I_DIRTY_INODE is
 *         both), I_DIRTY_PAGES (its mapping has dirty pages), I_DIRTY_TIME (lazy
 *         timestamps only)
 *
 * Dirty metadata is first handed to the filesystem's ->dirty_inode() (ext4 journals the
 * inode there). An inode that was clean is attached to a wb if it has none (the current
 * task's memcg's) and goes on that wb's dirty list, and the wb's flusher is armed for the
 * periodic writeback. Unhashed inodes (but block devices'), inodes being freed and inodes
 * the flusher queued stay where they are.
 *
 * Context: process context; may sleep in ->dirty_inode() for metadata flags;
 * I_DIRTY_PAGES alone never sleeps.
 */
void __mark_inode_dirty(struct inode *inode, int flags);
static inline void mark_inode_dirty(struct inode *inode)
{
	__mark_inode_dirty(inode, I_DIRTY_INODE);
}
static inline void mark_inode_dirty_sync(struct inode *inode)
{
	__mark_inode_dirty(inode, I_DIRTY_SYNC);
}
/* Release the inode's pages and writeback state before the filesystem's evict. */
void clear_inode(struct inode *inode);
/**
 * prune_icache() - free unused clean inodes (memory pressure, drop_caches)
 * @nr: how many at most
 *
 * Superblocks being mounted or unmounted are skipped.
 *
 * Context: process context; may sleep.
 * Return: the number freed.
 */
unsigned long prune_icache(unsigned long nr);
/* Evict every unused inode of sb (umount); returns how many stayed busy. */
int evict_inodes(struct super_block *sb);
void inode_set_bytes(struct inode *inode, loff_t bytes);
/**
 * setattr_copy() - apply an attribute change's mode and timestamps to an inode
 * @inode: the inode
 * @attr: the change; ATTR_MODE (the permission bits only), ATTR_ATIME, ATTR_MTIME and
 *        ATTR_CTIME are applied
 *
 * For ->setattr() implementations; the size is the filesystem's business. The inode is
 * not marked dirty here.
 *
 * Context: the inode's i_rwsem held; never sleeps.
 */
void setattr_copy(struct inode *inode, const struct iattr *attr);
void generic_fillattr(struct inode *inode, struct kstat *stat);
/**
 * vfs_truncate() - change the size of the regular file a path names
 * @path: the path
 * @length: the new size
 *
 * Under the inode's i_rwsem: the page cache is truncated and the filesystem frees the
 * blocks past the new end through ->setattr().
 *
 * Context: process context; sleeps.
 * Return: 0; -EISDIR for a directory, -EINVAL for another non-regular file, the error of
 * the write-permission check (-EROFS...), or the filesystem's.
 */
int vfs_truncate(const struct path *path, loff_t length);
/**
 * vfs_fallocate() - allocate (or with other modes change) the blocks of a range of a file
 * @file: the open file
 * @mode: FALLOC_FL_* (0: allocate, and grow the file to cover the range)
 * @offset: the first byte
 * @len: bytes, more than 0
 *
 * Linux's checks in Linux's order (the mode's combinations, a writable file, its type, the
 * range against the largest file), then the file system's ->fallocate().
 *
 * Context: process context; sleeps.
 * Return: 0, or -EINVAL, -EOPNOTSUPP (a mode no file system here does, or no
 * ->fallocate()), -EBADF, -ESPIPE, -EISDIR, -ENODEV, -EFBIG, or the file system's error.
 */
int vfs_fallocate(struct file *file, int mode, loff_t offset, loff_t len);
/**
 * truncate_setsize() - set an inode's size, dropping the pages past a new, smaller end
 * @inode: the inode
 * @newsize: the new i_size
 *
 * Context: process context with the inode's i_rwsem held; may sleep.
 */
void truncate_setsize(struct inode *inode, loff_t newsize);
unsigned long nr_inodes_cached(void);

/* ---------------------------------------------------------------- dentries */
struct dentry *d_alloc(struct dentry *parent, const struct qstr *name);
/**
 * d_make_root() - the root dentry of a new superblock
 * @root_inode: the root directory's inode, or NULL (then NULL is returned)
 *
 * Context: process context (mount); may sleep.
 * Return: the dentry, with the inode's reference; or NULL, the inode's reference dropped,
 * if memory ran out.
 */
struct dentry *d_make_root(struct inode *root_inode);
/**
 * d_instantiate() - attach an inode to a negative dentry
 * @dentry: the dentry, negative
 * @inode: the inode; its reference goes to the dentry
 *
 * Context: any context; never sleeps.
 */
void d_instantiate(struct dentry *dentry, struct inode *inode);
/**
 * d_splice_alias() - attach a looked-up inode to its dentry (->lookup()'s return)
 * @inode: the inode found, NULL if there is none (a negative dentry), or an ERR_PTR
 * @dentry: the dentry looked up
 *
 * Directories here have a single name each, so there is never an alias to splice: the
 * inode joins @dentry, which is hashed (d_add()).
 *
 * Context: any context; never sleeps.
 * Return: NULL, or @inode's ERR_PTR.
 */
struct dentry *d_splice_alias(struct inode *inode, struct dentry *dentry);
struct dentry *dget(struct dentry *dentry);
/**
 * dput() - drop a reference on a dentry
 * @dentry: the dentry, or NULL
 *
 * An unused hashed positive dentry of an active filesystem stays cached on the LRU list;
 * any other is freed at its last reference, its inode's reference dropped (iput()), and
 * then its parent's reference is dropped the same way.
 *
 * Context: process context; may sleep (iput()).
 */
void dput(struct dentry *dentry);
void d_drop(struct dentry *dentry);
void d_delete(struct dentry *dentry);
void d_move(struct dentry *dentry, struct dentry *target);
/**
 * prune_dcache() - free unused dentries (memory pressure, drop_caches)
 * @nr: how many at most, oldest first
 *
 * Context: process context; may sleep (iput()).
 * Return: the number freed.
 */
unsigned long prune_dcache(unsigned long nr);
/**
 * d_path() - the full path of a path, within its mount namespace
 * @path: the path
 * @buf: where to write it, NUL-terminated
 * @size: room in @buf
 *
 * A name that was unlinked ends with " (deleted)", as Linux's.
 *
 * Context: any context; never sleeps.
 * Return: 0, or -ENAMETOOLONG if it does not fit in @size.
 */
int d_path(const struct path *path, char *buf, size_t size);

/* ---------------------------------------------------------------- paths */
#define LOOKUP_FOLLOW 0x1    /* follow a final symlink */
#define LOOKUP_DIRECTORY 0x2 /* the final component must be a directory */
#define LOOKUP_PARENT 0x10

/**
 * kern_path() - resolve a path name
 * @name: the name, relative to the current task's working directory unless absolute
 * @flags: LOOKUP_FOLLOW to follow a final symlink, LOOKUP_DIRECTORY if it must be a
 *         directory
 * @path: set to the path found, with references on its dentry and mount
 *
 * Context: process context; may sleep.
 * Return: 0 (then path_put() @path when done), or a negative errno: -ENOENT, -ENOTDIR,
 * -ENAMETOOLONG, -ELOOP...
 */
int kern_path(const char *name, unsigned int flags, struct path *path);
void path_get(const struct path *path);
/**
 * path_put() - drop the references of a path
 * @path: the path (kern_path(), get_fs_pwd()...)
 *
 * Context: process context; may sleep (dput()).
 */
void path_put(const struct path *path);

/* The namespace root and the calling task's working directory. */
void get_fs_root(struct path *root);
/**
 * get_fs_pwd() - the current task's working directory
 * @pwd: set to it, with references (path_put() when done); the namespace root for a task
 *       without one
 *
 * Context: process context; never sleeps.
 */
void get_fs_pwd(struct path *pwd);
/**
 * set_fs_pwd() - change the current task's working directory (chdir)
 * @path: the directory's name
 *
 * Context: process context; may sleep.
 * Return: 0, or a negative errno: the lookup's (-ENOENT, -ENOTDIR...) or the change's.
 */
int set_fs_pwd(const char *path);

/* ---------------------------------------------------------------- files and operations */
/**
 * filp_open() - open a file by name
 * @path: the name, relative to the current task's working directory unless absolute
 * @flags: O_* flags (O_CREAT, O_TRUNC, O_APPEND...)
 * @mode: the permissions of a file O_CREAT creates
 *
 * Context: process context; may sleep.
 * Return: the open file, or an ERR_PTR: -EFAULT for a NULL @path, or the open's negative
 * errno.
 */
struct file *filp_open(const char *path, unsigned int flags, umode_t mode);
struct file *dentry_open(const struct path *path, unsigned int flags);
/**
 * vfs_llseek() - move a file's position (lseek)
 * @file: the file
 * @offset: the offset
 * @whence: SEEK_SET, SEEK_CUR or SEEK_END
 *
 * Context: process context.
 * Return: the new position, or a negative errno: -ESPIPE for a file that cannot seek, or
 * its ->llseek()'s.
 */
loff_t vfs_llseek(struct file *file, loff_t offset, int whence);
/**
 * generic_file_llseek() - ->llseek() of files with a size
 * @file: the file
 * @offset: the offset
 * @whence: SEEK_SET, SEEK_CUR or SEEK_END (from i_size)
 *
 * A seek that moves the position breaks the sequential pattern readahead follows.
 *
 * Context: process context; never sleeps.
 * Return: the new position, or -EINVAL for another @whence, or a position that is
 * negative or past the filesystem's maximum size.
 */
loff_t generic_file_llseek(struct file *file, loff_t offset, int whence);
/**
 * vfs_fsync() - make a file's data and metadata durable (fsync)
 * @file: the file
 * @datasync: nonzero for fdatasync (the metadata only as far as the data needs it)
 *
 * vfs_fsync_range() over the whole file.
 *
 * Context: process context; sleeps.
 * Return: 0 or a negative errno, as vfs_fsync_range().
 */
int vfs_fsync(struct file *file, int datasync);
/**
 * vfs_fsync_range() - make a range of a file durable
 * @file: the file
 * @start: the first byte
 * @end: the last byte (inclusive)
 * @datasync: nonzero for fdatasync
 *
 * An fsync (not an fdatasync) first makes the inode's lazy timestamps dirty metadata, to
 * be written with it. Then the file's ->fsync().
 *
 * Context: process context; sleeps.
 * Return: 0, -EINVAL for a file without ->fsync(), or its negative errno.
 */
int vfs_fsync_range(struct file *file, loff_t start, loff_t end, int datasync);
/**
 * iterate_dir() - list a directory's entries from the file's position
 * @file: the open directory
 * @ctx: the actor called for each entry (dir_emit()); its pos is the file's position,
 *       written back afterwards
 *
 * Under the directory's i_rwsem, read.
 *
 * Context: process context; may sleep.
 * Return: 0; -ENOTDIR if @file is not a directory; -ENOENT if the directory was removed
 * (Linux lists nothing at all); or the filesystem's negative errno.
 */
int iterate_dir(struct file *file, struct dir_context *ctx);
/**
 * vfs_getattr() - the attributes of a path's inode
 * @path: the path
 * @stat: filled with them
 *
 * Context: process context.
 * Return: 0.
 */
int vfs_getattr(const struct path *path, struct kstat *stat);
/**
 * vfs_stat() - the attributes of a file by name, following a final symlink (stat)
 * @name: the name
 * @stat: filled with them
 *
 * Context: process context; may sleep.
 * Return: 0, or the lookup's negative errno.
 */
int vfs_stat(const char *name, struct kstat *stat);
/**
 * vfs_lstat() - the attributes of a file by name, not following a final symlink (lstat)
 * @name: the name
 * @stat: filled with them
 *
 * Context: process context; may sleep.
 * Return: 0, or the lookup's negative errno.
 */
int vfs_lstat(const char *name, struct kstat *stat);
/**
 * vfs_statfs() - the statistics of the filesystem holding a path (statfs)
 * @path: the path
 * @buf: filled with them; f_namelen is NAME_MAX if the filesystem does not set it
 *
 * Context: process context; may sleep.
 * Return: 0, -ENOSYS if the filesystem has no ->statfs(), or its negative errno.
 */
int vfs_statfs(const struct path *path, struct kstatfs *buf);
/*
 * The name-based operations below resolve names as kern_path() does, lock the parent
 * directory's i_rwsem for the change, and sleep.
 */
/**
 * do_mkdir() - create a directory (mkdir)
 * @name: its name
 * @mode: its permissions, less the umask 022
 *
 * Context: process context; sleeps.
 * Return: 0, or a negative errno: -EEXIST, -EROFS, -EPERM if the filesystem cannot, the
 * lookup's or the filesystem's.
 */
int do_mkdir(const char *name, umode_t mode);
/**
 * do_rmdir() - remove an empty directory (rmdir)
 * @name: its name
 *
 * Context: process context; sleeps.
 * Return: 0, or a negative errno: -ENOENT, -ENOTDIR, -EROFS, -EBUSY for a mount point,
 * -EPERM if the filesystem cannot, -ENOTEMPTY, or the lookup's ("." and ".." as Linux's).
 */
int do_rmdir(const char *name);
/**
 * do_unlink() - remove a name of a file that is not a directory (unlink)
 * @name: the name
 *
 * Context: process context; sleeps.
 * Return: 0, or a negative errno: -ENOENT, -EISDIR, -ENOTDIR for a trailing slash,
 * -EROFS, -EBUSY, -EPERM if the filesystem cannot, or the lookup's.
 */
int do_unlink(const char *name);
/**
 * do_rename() - rename a file or directory (rename)
 * @oldname: its name
 * @newname: the new name, replaced if it exists and may be
 *
 * Context: process context; sleeps.
 * Return: 0, or a negative errno: -EXDEV across mounts, the lookups' or the checks' and
 * the filesystem's.
 */
int do_rename(const char *oldname, const char *newname);
/**
 * do_link() - give a file that is not a directory another name (link)
 * @oldname: the file's name (a final symlink is not followed)
 * @newname: the new name, which must not exist
 *
 * Context: process context; sleeps.
 * Return: 0, or a negative errno: -EPERM for a directory or a filesystem that cannot,
 * -EXDEV across mounts, -EEXIST, -EROFS, or the lookups'.
 */
int do_link(const char *oldname, const char *newname);
/**
 * do_symlink() - create a symbolic link (symlink)
 * @target: what it points to, not empty, shorter than PATH_MAX
 * @newname: its name, which must not exist
 *
 * Context: process context; sleeps.
 * Return: 0, or a negative errno: -ENOENT for an empty target, -ENAMETOOLONG, -EEXIST,
 * -EROFS, -EPERM if the filesystem cannot, or the lookup's.
 */
int do_symlink(const char *target, const char *newname);
int do_mknod(const char *name, umode_t mode, dev_t dev);
/**
 * do_readlink() - read a symbolic link's target (readlink)
 * @name: the link's name (not followed)
 * @buf: where to copy the target, not NUL-terminated
 * @size: room in @buf
 *
 * Context: process context; may sleep.
 * Return: the bytes copied, or a negative errno: -EINVAL if @name is not a symlink, or
 * the lookup's.
 */
int do_readlink(const char *name, char *buf, int size);
/**
 * do_truncate() - change the size of a file by name (truncate)
 * @name: the name (a final symlink is followed)
 * @length: the new size
 *
 * Context: process context; sleeps.
 * Return: 0, or a negative errno as vfs_truncate(), or the lookup's.
 */
int do_truncate(const char *name, loff_t length);
/**
 * do_utimes() - set a file's access, modification and change times to now (touch)
 * @name: the name (a final symlink is followed)
 *
 * Context: process context; sleeps.
 * Return: 0, or a negative errno: the write-permission check's (-EROFS), the lookup's or
 * the filesystem's.
 */
int do_utimes(const char *name);

/* ---------------------------------------------------------------- mounts */
/**
 * do_mount() - mount a filesystem (mount)
 * @dev_name: the device (for a block device filesystem), or any name
 * @dir_name: the directory to mount it on (a final symlink is followed)
 * @type: the registered filesystem type
 * @flags: SB_* flags (SB_RDONLY)
 * @data: the filesystem's options, or NULL
 *
 * Context: process context; sleeps; takes the namespace mutex.
 * Return: 0, or a negative errno: -ENODEV for an unknown type, the lookup's, or the
 * filesystem's ->mount()'s.
 */
int do_mount(const char *dev_name, const char *dir_name, const char *type, unsigned long flags,
	     void *data);
/**
 * do_umount() - unmount a filesystem (umount)
 * @dir_name: its mount point
 * @flags: unused
 *
 * The mount is detached, then its filesystem synced, so that a writeback error nobody was
 * told of is reported here, once; it is unmounted all the same, and shut down when the
 * last reference to it goes.
 *
 * Context: process context; sleeps; takes the namespace mutex.
 * Return: 0; -EINVAL if @dir_name is not a mount point; -EBUSY for the root mount or a
 * mount in use or with mounts below it; the lookup's negative errno; or the sync's
 * writeback error (the filesystem is unmounted nonetheless).
 */
int do_umount(const char *dir_name, int flags);
/**
 * blkdev_probe_fstype() - the filesystem type a block device holds
 * @dev_name: the device: a /dev block special file, or a bare disk name
 * @err: set to a negative errno when NULL is returned
 *
 * Read from its superblock as mount(8) asks blkid: "ext2" for an ext2 image, "ext4" for an
 * ext3 or ext4 one (the family's driver, as Linux's ext4 mounts ext3).
 *
 * Context: process context; sleeps.
 * Return: the type's name (static), or NULL with *@err set: -EINVAL if the device holds
 * none of them, else why it could not be found or read (-ENOENT, -ENOTBLK, -ENXIO, -EIO,
 * -ENOMEM).
 */
const char *blkdev_probe_fstype(const char *dev_name, int *err);
/**
 * for_each_mount() - call a function for each mount (/proc/mounts, df)
 * @fn: called with each mount, the root mount first, and @arg
 * @arg: passed to @fn
 *
 * Context: process context; @fn runs under the namespace mutex (it must not mount or
 * unmount).
 */
void for_each_mount(void (*fn)(struct vfsmount *, void *), void *arg);
/**
 * storage_init() - start the page cache, writeback and block-device layers
 *
 * Before any disk is probed or anything mounted, once the CPUs are up: the dcache and
 * icache shrinkers, the writeback trace events, the VFS's disk hooks, the node counters'
 * thresholds, the page cache, buffers, bdi, dirty throttling, the periodic writeback of
 * lazy timestamps, reclaim and the block-device inodes.
 *
 * Context: boot, once.
 */
void storage_init(void);
/**
 * vfs_init() - mount the root filesystem and the standard mounts
 *
 * A ramfs root and its directories, then devtmpfs on /dev, proc, sysfs, debugfs and tmpfs,
 * and the /dev and /sys files of the disks already probed. A failure panics.
 *
 * Context: boot, once, after storage_init().
 */
void vfs_init(void);
/**
 * mount_boot_disk() - mount the first disk on /mnt if it holds an ext filesystem
 *
 * As its superblock says (blkdev_probe_fstype(): ext4 or ext3 as ext4), read-only if the
 * disk is. A raw disk is normal: nothing is said.
 *
 * Context: boot, after vfs_init().
 */
void mount_boot_disk(void);
/**
 * vfs_shutdown() - sync and unmount the disk filesystems (power-off)
 *
 * So that they are marked clean; a busy one stays mounted, already synced.
 *
 * Context: process context; sleeps.
 */
void vfs_shutdown(void);

/* ---------------------------------------------------------------- sync */
/**
 * ksys_sync() - write back everything and wait (sync(2))
 *
 * Wakes every flusher, syncs every writable disk filesystem, flushes every disk's write
 * cache and, in laptop mode, stops the laptop-mode timers. Writeback errors are not
 * reported here: they wait for syncfs or umount, as with Linux's errseq.
 *
 * Context: process context; sleeps.
 */
void ksys_sync(void);
/* Integrity sync of sb; returns the first error, including one not reported before. */
int sync_filesystem(struct super_block *sb);
/**
 * vfs_syncfs() - sync the filesystem holding a path (syncfs(2))
 * @path: the path (a final symlink is followed)
 *
 * Context: process context; sleeps.
 * Return: 0, the lookup's negative errno, or the first writeback error of the filesystem
 * not reported before (reported once).
 */
int vfs_syncfs(const char *path);
/**
 * sb_record_wb_err() - record a writeback error of a filesystem
 * @sb: the superblock
 * @err: the negative errno; 0 records nothing
 *
 * Kept until a syncfs or umount reports it, once; the first error is the one kept.
 *
 * Context: any context, IO completion included; never sleeps.
 */
static inline void sb_record_wb_err(struct super_block *sb, int err)
{
	if (err && !READ_ONCE(sb->s_wb_err))
		WRITE_ONCE(sb->s_wb_err, err);
}
int sb_take_wb_err(struct super_block *sb);

/* ---------------------------------------------------------------- devices */
/* Character devices under /dev: name, operations, and the private data files get. */
struct char_device {
	const char *name;
	const struct file_operations *fops;
	void *private_data;
};
/**
 * register_chrdev() - register a character device under /dev
 * @dev: the device, static: its name, operations and private data
 *
 * It gets a device number and, once /dev exists, its /dev/NAME file.
 *
 * Context: process context; may sleep (its /dev file).
 * Return: 0; -EEXIST if a device of that name exists; -ENOSPC if the table is full.
 */
int register_chrdev(const struct char_device *dev);
const struct char_device *find_chrdev(const char *name);
/* Call fn for each registered device (ls /dev). */
void for_each_chrdev(void (*fn)(const struct char_device *, void *), void *arg);
/**
 * chrdev_init() - register the memory devices (null, zero, urandom...)
 *
 * Context: boot, once.
 */
void chrdev_init(void);

/* The backing device of an inode (the disk's bdi; the block device's for bdev inodes). */

/* ---------------------------------------------------------------- more VFS (fs/) */
static inline void inode_lock(struct inode *inode)
{
	down_write(&inode->i_rwsem);
}
static inline void inode_unlock(struct inode *inode)
{
	up_write(&inode->i_rwsem);
}
static inline struct inode *d_inode(const struct dentry *dentry)
{
	return dentry->d_inode;
}
static inline bool d_really_is_negative(const struct dentry *dentry)
{
	return !dentry->d_inode;
}

/**
 * get_next_ino() - a fresh inode number
 *
 * For filesystems without numbers of their own (ramfs, pseudo files).
 *
 * Context: any context.
 * Return: a number no other call returned.
 */
unsigned long get_next_ino(void);
/* The default ->drop_inode: evict at the last iput if unlinked or not hashed. */
int generic_drop_inode(struct inode *inode);
/**
 * init_special_inode() - make an inode a device special file
 * @inode: the inode
 * @mode: its type (S_IFCHR or S_IFBLK; another is logged and gets no operations) and
 *        permissions
 * @rdev: the device's number
 *
 * Its file operations find the device at open.
 *
 * Context: any context; never sleeps.
 */
void init_special_inode(struct inode *inode, umode_t mode, dev_t rdev);
extern const struct file_operations def_chr_fops;
extern const struct file_operations def_blk_fops; /* fs/block_dev.c */
/* Drop an active reference (a mount) of sb; the last one shuts the filesystem down. */
void deactivate_super(struct super_block *sb);
/**
 * deactivate_locked_super() - drop an active reference of a superblock, s_umount held
 * @sb: the superblock, its s_umount held for writing (released here)
 *
 * As deactivate_super(): the last reference shuts the filesystem down (->kill_sb()). For
 * a ->mount() that fails after alloc_super() or sget_bdev().
 *
 * Context: process context; may sleep.
 */
void deactivate_locked_super(struct super_block *sb);
/**
 * set_anon_super() - give a superblock without a device a device number (0:N)
 * @sb: the superblock
 *
 * Context: any context.
 * Return: 0.
 */
int set_anon_super(struct super_block *sb);
/**
 * kill_litter_super() - ->kill_sb() of filesystems whose names live only in the dcache
 * @sb: the superblock (ramfs, tmpfs, devtmpfs)
 *
 * Drops the filesystem's pins on its dentries, then kill_anon_super().
 *
 * Context: process context (umount); may sleep.
 */
void kill_litter_super(struct super_block *sb);
/**
 * d_add() - attach an inode to a negative dentry and make it findable
 * @dentry: the dentry, negative; it is hashed if it is not
 * @inode: the inode (its reference goes to the dentry), or NULL for a negative entry
 *
 * Context: any context; never sleeps.
 */
void d_add(struct dentry *dentry, struct inode *inode);
/* The cached child name of parent (referenced), or NULL. */
struct dentry *d_lookup(struct dentry *parent, const struct qstr *name);
/* Look name up in base (whose i_rwsem the caller holds): a referenced, maybe negative, dentry. */
struct dentry *lookup_one_len(const char *name, struct dentry *base, int len);
unsigned long nr_dentries_cached(void);
/**
 * mnt_fstype() - the filesystem type name of a mount
 * @mnt: the mount
 *
 * Context: any context.
 * Return: the name ("ext2", "tmpfs"...), static.
 */
const char *mnt_fstype(const struct vfsmount *mnt);

/*
 * libfs: directories that exist only as dentries (ramfs, tmpfs, devtmpfs). The filesystem
 * pins each name with an extra dentry reference (DCACHE_PINNED) so it is never pruned.
 */
/**
 * simple_lookup() - ->lookup() of dcache-only directories
 * @dir: the directory (unused)
 * @dentry: the name looked up
 *
 * A name not in the dcache does not exist: @dentry becomes a hashed negative dentry.
 *
 * Context: the directory's i_rwsem held; never sleeps.
 * Return: NULL, or ERR_PTR(-ENAMETOOLONG) for a name longer than NAME_MAX.
 */
struct dentry *simple_lookup(struct inode *dir, struct dentry *dentry);
/**
 * simple_link() - ->link() of dcache-only directories
 * @old_dentry: the existing name
 * @dir: the directory of the new name
 * @dentry: the new name, negative
 *
 * The inode gets another link and reference, and the new name is pinned.
 *
 * Context: the directory's i_rwsem held; never sleeps.
 * Return: 0.
 */
int simple_link(struct dentry *old_dentry, struct inode *dir, struct dentry *dentry);
/**
 * simple_unlink() - ->unlink() of dcache-only directories
 * @dir: the directory
 * @dentry: the name removed
 *
 * Drops a link of the inode and the filesystem's pin on the name.
 *
 * Context: the directory's i_rwsem held.
 * Return: 0.
 */
int simple_unlink(struct inode *dir, struct dentry *dentry);
/**
 * simple_rmdir() - ->rmdir() of dcache-only directories
 * @dir: the parent directory
 * @dentry: the directory removed
 *
 * Context: the parent's and the directory's i_rwsem held.
 * Return: 0, or -ENOTEMPTY.
 */
int simple_rmdir(struct inode *dir, struct dentry *dentry);
/**
 * simple_rename() - ->rename() of dcache-only directories
 * @old_dir: the directory of the old name
 * @old_dentry: the old name
 * @new_dir: the directory of the new name
 * @new_dentry: the new name; an existing one is unlinked first
 *
 * Only the link counts and times change here: the caller moves the dentry (d_move()).
 *
 * Context: both directories' i_rwsem held.
 * Return: 0, or -ENOTEMPTY if @new_dentry is a directory that is not empty.
 */
int simple_rename(struct inode *old_dir, struct dentry *old_dentry, struct inode *new_dir,
		  struct dentry *new_dentry);
/**
 * simple_setattr() - ->setattr() of filesystems without backing store
 * @dentry: the file
 * @attr: the change: the size (the page cache follows it), mode and times
 *
 * Context: the inode's i_rwsem held; may sleep (truncation).
 * Return: 0.
 */
int simple_setattr(struct dentry *dentry, struct iattr *attr);
/**
 * simple_statfs() - ->statfs() of filesystems without backing store
 * @dentry: the root
 * @buf: filled with the type (s_magic), page-sized blocks and NAME_MAX; no counts
 *
 * Context: any context.
 * Return: 0.
 */
int simple_statfs(struct dentry *dentry, struct kstatfs *buf);
bool simple_empty(struct dentry *dentry);
/**
 * d_pin() - keep a new name in the dcache for good
 * @dentry: the dentry; it gets the filesystem's reference (DCACHE_PINNED), which
 *          simple_unlink() or kill_litter_super() drops
 *
 * Context: any context; never sleeps.
 */
void d_pin(struct dentry *dentry);
int dcache_dir_open(struct inode *inode, struct file *file);
int dcache_dir_close(struct inode *inode, struct file *file);
int dcache_readdir(struct file *file, struct dir_context *ctx);
extern const struct file_operations simple_dir_operations;
/**
 * simple_readlink() - ->readlink() of symlinks whose target is a string in i_private
 * @dentry: the symlink (its target is freed by the filesystem at eviction)
 * @buf: where to copy the target, NUL-terminated
 * @size: room in @buf
 *
 * Context: any context.
 * Return: the target's length; -EINVAL without a target; -ENAMETOOLONG if it does not fit
 * in @size with its NUL.
 */
int simple_readlink(struct dentry *dentry, char *buf, int size);

/*
 * A task's working directory. task->fs == NULL means the root. A spawner gives a new task
 * its parent's directory with task_copy_fs(child, parent), or the parent's very fs_struct
 * with task_share_fs() (clone's CLONE_FS: a chdir of one moves all), before the child
 * runs; the task drops it on exit through exit_fs() (called by the task exit hook).
 */
struct fs_struct {
	int users; /* tasks sharing it, under lock */
	spinlock_t lock;
	struct path pwd;
};
struct task_struct;
/**
 * task_copy_fs() - give a new task its parent's working directory
 * @child: the new task, not running yet; nothing is done if it has one already
 * @parent: the spawner, or NULL (the child starts at the root)
 *
 * Without memory the child starts at the root.
 *
 * Context: process context; may sleep.
 */
void task_copy_fs(struct task_struct *child, struct task_struct *parent);
/**
 * task_share_fs() - give a new task its parent's fs_struct itself (CLONE_FS)
 * @child: the new task, not running yet, without an fs_struct
 * @parent: the spawner
 *
 * A parent working from the root without an fs_struct gets one first, so that the two
 * share what either changes after.
 *
 * Context: process context; may sleep.
 * Return: 0, or -ENOMEM.
 */
int task_share_fs(struct task_struct *child, struct task_struct *parent);
void exit_fs(struct task_struct *task);

/* ---------------------------------------------------------------- disks and boot */
struct gendisk;
/* fs/block_dev.c, when add_disk() tells the VFS: the disk's bdi and block-device page cache. */
int bdev_attach_disk(struct gendisk *disk);
/* /dev/NAME and /sys/block/NAME for a disk (add_disk(); no-op before vfs_init()). */
void vfs_add_disk(struct gendisk *disk);
/* Boot-time set-up of the page cache and block-device layers (the lead's files). */
/**
 * filemap_init() - set up the page cache's wait queues (page lock and writeback waits)
 *
 * Context: boot, once (storage_init()).
 */
void filemap_init(void);
void buffer_init(void);
void bdev_init(void);

#endif
