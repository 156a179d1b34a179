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
int register_filesystem(struct file_system_type *fs);
struct file_system_type *get_fs_type(const char *name);

/* ---------------------------------------------------------------- superblocks */
/* A new superblock (s_umount held for writing until the caller's mount finishes). */
struct super_block *alloc_super(struct file_system_type *type, int flags);
/*
 * A superblock for a block device filesystem: opens dev_name, sets s_bdev/s_bdi. A device
 * already mounted with the same type and read-only flag gives its superblock, shared
 * (s_root set: the caller fills nothing); another type or flag is -EBUSY.
 */
struct super_block *sget_bdev(struct file_system_type *type, int flags, const char *dev_name);
int sb_set_blocksize(struct super_block *sb, int size);
void generic_shutdown_super(struct super_block *sb);
void kill_block_super(struct super_block *sb);
void kill_anon_super(struct super_block *sb);
void iterate_supers(void (*fn)(struct super_block *, void *), void *arg);

/* ---------------------------------------------------------------- inodes */
struct inode *new_inode(struct super_block *sb);
/* The cached inode ino, or a new one with I_NEW set for the filesystem to fill. */
struct inode *iget_locked(struct super_block *sb, unsigned long ino);
/* Is inode ino of sb in the inode cache and not being freed? No reference is taken. */
bool icache_has_live_inode(struct super_block *sb, unsigned long ino);
void unlock_new_inode(struct inode *inode);
/* A failed I_NEW inode: unhash and drop it. */
void iget_failed(struct inode *inode);
void ihold(struct inode *inode);
void iput(struct inode *inode);
struct inode *igrab(struct inode *inode);
/*
 * igrab() without waiting for i_lock, for a caller holding a lock that ranks after it (the
 * sb's writeback list): NULL with *busy set when i_lock is taken.
 */
struct inode *igrab_trylock(struct inode *inode, bool *busy);
void insert_inode_hash(struct inode *inode);
void remove_inode_hash(struct inode *inode);
void clear_nlink(struct inode *inode);
void set_nlink(struct inode *inode, unsigned int nlink);
void inc_nlink(struct inode *inode);
void drop_nlink(struct inode *inode);
void inode_init_owner(struct inode *inode, const struct inode *dir, umode_t mode);
struct timespec64 current_time(struct inode *inode);
/* Mark inode metadata / pages / timestamps dirty (fs/fs-writeback.c). */
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
/* Free unused clean inodes of every superblock (memory pressure); returns the number. */
unsigned long prune_icache(unsigned long nr);
/* Evict every unused inode of sb (umount); returns how many stayed busy. */
int evict_inodes(struct super_block *sb);
void inode_set_bytes(struct inode *inode, loff_t bytes);
/* Apply the mode and timestamps of attr (setattr implementations; not the size). */
void setattr_copy(struct inode *inode, const struct iattr *attr);
void generic_fillattr(struct inode *inode, struct kstat *stat);
/* Change the size: page cache truncation plus the filesystem's block freeing via setattr. */
int vfs_truncate(const struct path *path, loff_t length);
void truncate_setsize(struct inode *inode, loff_t newsize);
unsigned long nr_inodes_cached(void);

/* ---------------------------------------------------------------- dentries */
struct dentry *d_alloc(struct dentry *parent, const struct qstr *name);
struct dentry *d_make_root(struct inode *root_inode);
void d_instantiate(struct dentry *dentry, struct inode *inode);
/* Attach inode (may be NULL: not found) to a looked-up dentry; returns NULL or an alias. */
struct dentry *d_splice_alias(struct inode *inode, struct dentry *dentry);
struct dentry *dget(struct dentry *dentry);
void dput(struct dentry *dentry);
void d_drop(struct dentry *dentry);
void d_delete(struct dentry *dentry);
void d_move(struct dentry *dentry, struct dentry *target);
/* Free unused dentries (memory pressure); returns the number. */
unsigned long prune_dcache(unsigned long nr);
/* Full path of a dentry (within its mount namespace) into buf. */
int d_path(const struct path *path, char *buf, size_t size);

/* ---------------------------------------------------------------- paths */
#define LOOKUP_FOLLOW 0x1    /* follow a final symlink */
#define LOOKUP_DIRECTORY 0x2 /* the final component must be a directory */
#define LOOKUP_PARENT 0x10

/* Resolve path (relative to the caller's cwd) to a referenced path; path_put when done. */
int kern_path(const char *name, unsigned int flags, struct path *path);
void path_get(const struct path *path);
void path_put(const struct path *path);

/* The namespace root and the calling task's working directory. */
void get_fs_root(struct path *root);
void get_fs_pwd(struct path *pwd);
int set_fs_pwd(const char *path);

/* ---------------------------------------------------------------- files and operations */
/* Open path (O_* flags); ERR_PTR(-errno) on failure. */
struct file *filp_open(const char *path, unsigned int flags, umode_t mode);
struct file *dentry_open(const struct path *path, unsigned int flags);
loff_t vfs_llseek(struct file *file, loff_t offset, int whence);
loff_t generic_file_llseek(struct file *file, loff_t offset, int whence);
int vfs_fsync(struct file *file, int datasync);
int vfs_fsync_range(struct file *file, loff_t start, loff_t end, int datasync);
int iterate_dir(struct file *file, struct dir_context *ctx);
int vfs_getattr(const struct path *path, struct kstat *stat);
int vfs_stat(const char *name, struct kstat *stat);
int vfs_lstat(const char *name, struct kstat *stat);
int vfs_statfs(const struct path *path, struct kstatfs *buf);
int do_mkdir(const char *name, umode_t mode);
int do_rmdir(const char *name);
int do_unlink(const char *name);
int do_rename(const char *oldname, const char *newname);
int do_link(const char *oldname, const char *newname);
int do_symlink(const char *target, const char *newname);
int do_mknod(const char *name, umode_t mode, dev_t dev);
int do_readlink(const char *name, char *buf, int size);
int do_truncate(const char *name, loff_t length);
/* Set the access and modification times of name (following symlinks) to now (touch). */
int do_utimes(const char *name);

/* ---------------------------------------------------------------- mounts */
int do_mount(const char *dev_name, const char *dir_name, const char *type, unsigned long flags,
	     void *data);
int do_umount(const char *dir_name, int flags);
/*
 * The filesystem type to mount dev_name as, read from its superblock as mount(8) asks
 * blkid: "ext2" for an ext2 image, "ext4" for an ext3 or ext4 one (the family's driver,
 * as Linux's ext4 mounts ext3). NULL with *err: -EINVAL if the device holds none of them,
 * else why it could not be found or read (-ENOENT, -ENOTBLK, -EIO...). May sleep.
 */
const char *blkdev_probe_fstype(const char *dev_name, int *err);
/* Call fn for each mount (for /proc/mounts, df). */
void for_each_mount(void (*fn)(struct vfsmount *, void *), void *arg);
/* The page cache, writeback and block-device layers (before any disk or mount). */
void storage_init(void);
/* The root filesystem and the standard mounts: /dev /proc /sys /tmp. */
void vfs_init(void);
/* Mount the first disk on /mnt if it holds ext2. */
void mount_boot_disk(void);
/* Sync and unmount the disk filesystems (power-off). */
void vfs_shutdown(void);

/* ---------------------------------------------------------------- sync */
/* Write back every dirty inode and metadata of every filesystem and wait (sync(2)). */
void ksys_sync(void);
/* Integrity sync of sb; returns the first error, including one not reported before. */
int sync_filesystem(struct super_block *sb);
/* syncfs(2) of the filesystem holding path. */
int vfs_syncfs(const char *path);
/* Writeback errors of a filesystem: kept until a syncfs or umount reports them, once. */
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
int register_chrdev(const struct char_device *dev);
const struct char_device *find_chrdev(const char *name);
/* Call fn for each registered device (ls /dev). */
void for_each_chrdev(void (*fn)(const struct char_device *, void *), void *arg);
/* Registers the memory devices (null, zero, urandom). */
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

/* A fresh inode number for filesystems without their own (ramfs, pseudo files). */
unsigned long get_next_ino(void);
/* The default ->drop_inode: evict at the last iput if unlinked or not hashed. */
int generic_drop_inode(struct inode *inode);
/* A device special file: i_rdev and file operations that find the device at open. */
void init_special_inode(struct inode *inode, umode_t mode, dev_t rdev);
extern const struct file_operations def_chr_fops;
extern const struct file_operations def_blk_fops; /* fs/block_dev.c */
/* Drop an active reference (a mount) of sb; the last one shuts the filesystem down. */
void deactivate_super(struct super_block *sb);
/* Same with s_umount held for writing (released): a ->mount that fails after alloc_super. */
void deactivate_locked_super(struct super_block *sb);
/* A device number (0:N) for a superblock without a device. */
int set_anon_super(struct super_block *sb);
/* kill_sb of filesystems whose names live only in the dcache (ramfs, tmpfs, devtmpfs). */
void kill_litter_super(struct super_block *sb);
/* Attach inode to a negative dentry and make it findable (d_instantiate + hash). */
void d_add(struct dentry *dentry, struct inode *inode);
/* The cached child name of parent (referenced), or NULL. */
struct dentry *d_lookup(struct dentry *parent, const struct qstr *name);
/* Look name up in base (whose i_rwsem the caller holds): a referenced, maybe negative, dentry. */
struct dentry *lookup_one_len(const char *name, struct dentry *base, int len);
unsigned long nr_dentries_cached(void);
/* The filesystem type name of a mount ("ext2", "tmpfs", ...). */
const char *mnt_fstype(const struct vfsmount *mnt);

/*
 * libfs: directories that exist only as dentries (ramfs, tmpfs, devtmpfs). The filesystem
 * pins each name with an extra dentry reference (DCACHE_PINNED) so it is never pruned.
 */
struct dentry *simple_lookup(struct inode *dir, struct dentry *dentry);
int simple_link(struct dentry *old_dentry, struct inode *dir, struct dentry *dentry);
int simple_unlink(struct inode *dir, struct dentry *dentry);
int simple_rmdir(struct inode *dir, struct dentry *dentry);
int simple_rename(struct inode *old_dir, struct dentry *old_dentry, struct inode *new_dir,
		  struct dentry *new_dentry);
int simple_setattr(struct dentry *dentry, struct iattr *attr);
int simple_statfs(struct dentry *dentry, struct kstatfs *buf);
bool simple_empty(struct dentry *dentry);
/* Keep a new name in the dcache for good (the filesystem's reference). */
void d_pin(struct dentry *dentry);
int dcache_dir_open(struct inode *inode, struct file *file);
int dcache_dir_close(struct inode *inode, struct file *file);
int dcache_readdir(struct file *file, struct dir_context *ctx);
extern const struct file_operations simple_dir_operations;
/* Symlinks whose target is a string in i_private (freed by the filesystem at eviction). */
int simple_readlink(struct dentry *dentry, char *buf, int size);

/*
 * A task's working directory. task->fs == NULL means the root. A spawner gives a new task
 * its parent's directory with task_copy_fs(child, parent) before the child runs; the task
 * drops it on exit through exit_fs() (called by the task exit hook).
 */
struct fs_struct {
	int users;
	spinlock_t lock;
	struct path pwd;
};
struct task_struct;
void task_copy_fs(struct task_struct *child, struct task_struct *parent);
void exit_fs(struct task_struct *task);

/* ---------------------------------------------------------------- disks and boot */
struct gendisk;
/* fs/block_dev.c, when add_disk() tells the VFS: the disk's bdi and block-device page cache. */
int bdev_attach_disk(struct gendisk *disk);
/* /dev/NAME and /sys/block/NAME for a disk (add_disk(); no-op before vfs_init()). */
void vfs_add_disk(struct gendisk *disk);
/* Boot-time set-up of the page cache and block-device layers (the lead's files). */
void filemap_init(void);
void buffer_init(void);
void bdev_init(void);

#endif
