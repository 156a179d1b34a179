/*
 * Shared inside the VFS core (fs/, fs/ramfs, fs/pseudo, fs/proc, fs/sysfs): the pieces of the
 * dcache, inode cache, superblock list, mount tree and path walk that the public header
 * does not expose.
 *
 * Lock order, outer to inner:
 *   namespace_sem (mutex: mount/umount) -> sb->s_umount -> inode->i_rwsem (directory
 *   first, rename: rename_mutex then the two directories) -> mount_lock -> dcache_lock ->
 *   inode_hash_lock -> inode->i_lock -> sb->s_inode_list_lock
 * Spinlocks are never held across anything that may sleep (iput, allocation, IO).
 */
#ifndef CGWB_FS_VFS_H
#define CGWB_FS_VFS_H

#include <cgwb/fs.h>
#include <cgwb/spinlock.h>

static inline unsigned int fs_umode_to_dtype(umode_t mode)
{
	return (mode & S_IFMT) >> 12;
}

/* ---------------------------------------------------------------- dcache.c */
extern spinlock_t dcache_lock;
/* A new reference to a dentry found under dcache_lock (off the LRU if it was unused). */
void dget_dlock(struct dentry *dentry);
struct dentry *d_alloc_cursor(struct dentry *parent);
/* A dentry whose d_revalidate said stale: unhash it so the next walk looks again. */
void d_invalidate(struct dentry *dentry);
void d_set_mounted(struct dentry *dentry);
void d_clear_mounted(struct dentry *dentry);
/* Drop the filesystem's pins of every name under root (kill_litter_super). */
void d_genocide(struct dentry *root);
/* Free the unused dentries below parent (rmdir). */
void shrink_dcache_parent(struct dentry *parent);
/* Free every unused dentry of sb's tree below the root (umount). */
void shrink_dcache_for_umount(struct super_block *sb);
/* Is dentry (or a dentry above it) the same as ancestor? dcache_lock not held. */
bool is_subdir(struct dentry *dentry, struct dentry *ancestor);

/* ---------------------------------------------------------------- inode.c */
void make_bad_inode(struct inode *inode);
bool is_bad_inode(const struct inode *inode);
/* Evict one inode already marked I_FREEING and off the LRU. */
void evict(struct inode *inode);

/* ---------------------------------------------------------------- super.c */
/* Look up a file system type by name, or NULL. */
struct file_system_type *lookup_fs_type(const char *name);
void for_each_fs_type(void (*fn)(struct file_system_type *, void *), void *arg);
/* iterate_supers, skipping superblocks whose s_umount is busy (reclaim). */
void iterate_supers_trylock(void (*fn)(struct super_block *, void *), void *arg);
bool grab_active_super(struct super_block *sb);

/* ---------------------------------------------------------------- namespace.c */
extern struct vfsmount *root_mnt;
struct vfsmount *mntget(struct vfsmount *mnt);
void mntput(struct vfsmount *mnt);
/* The topmost mount on path (referenced), or NULL. */
struct vfsmount *lookup_mnt(const struct path *path);
/* Create a mount of a new (or shared) superblock, not attached anywhere. */
int mount_root(const char *type);
struct vfsmount *vfs_kern_mount(struct file_system_type *type, int flags, const char *dev_name,
				void *data);
bool mnt_is_readonly(const struct vfsmount *mnt);

/* ---------------------------------------------------------------- namei.c */
#define LAST_NORM 0
#define LAST_ROOT 1
#define LAST_DOT 2
#define LAST_DOTDOT 3

struct nameidata {
	struct path path; /* where the walk is (referenced) */
	struct qstr last; /* LOOKUP_PARENT: the final component, unresolved */
	int last_type;
	unsigned int flags;
	int depth;           /* symlinks followed so far */
	bool trailing_slash; /* the name ended in '/' */
};

/*
 * Resolve name from base (NULL: the root or the cwd) to a referenced path. Flags:
 * LOOKUP_FOLLOW follows a final symlink, LOOKUP_DIRECTORY requires a directory.
 */
int path_lookup_from(const struct path *base, const char *name, unsigned int flags, struct path *out);
/* Resolve all but the last component into nd (nd->path referenced, nd->last set). */
int path_parent(const char *name, unsigned int flags, struct nameidata *nd);
int path_parent_from(const struct path *base, const char *name, unsigned int flags,
		     struct nameidata *nd);
void nd_release(struct nameidata *nd);
/* Look last up in the locked directory nd->path.dentry: a referenced dentry, maybe negative. */
struct dentry *lookup_last_locked(struct nameidata *nd);
/* Read a symlink's target into a new buffer (kfree it), or ERR_PTR. */
char *vfs_get_link(struct dentry *dentry);

/* ---------------------------------------------------------------- namei_ops.c */
int vfs_mkdir(struct inode *dir, struct dentry *dentry, umode_t mode);
int vfs_create(struct inode *dir, struct dentry *dentry, umode_t mode);

/* ---------------------------------------------------------------- open.c */
int notify_change(struct dentry *dentry, struct iattr *attr);
int may_write_path(const struct path *path);

/* ---------------------------------------------------------------- chrdev.c / devfs.c */
const struct char_device *find_chrdev_by_dev(dev_t dev);
dev_t chrdev_devt(const struct char_device *dev);
void devfs_init(void);
void devfs_add_chrdev(const struct char_device *dev);
void devfs_add_disk(struct gendisk *disk);

/* ---------------------------------------------------------------- ramfs, pseudo, proc, sys */
void init_ramfs_fs(void);
void pseudo_fs_init(void);
void proc_init(void);
void sysfs_init(void);
void sysfs_add_disk(struct gendisk *disk);

#endif
