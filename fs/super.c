/*
 * Superblocks and filesystem types.
 *
 * A superblock is born in alloc_super() with s_umount held for writing and one active
 * reference (s_count) for the mount being built; each further mount of it adds one and
 * deactivate_super() drops one. The last one runs the type's kill_sb, which shuts the
 * filesystem down (generic_shutdown_super) with s_umount held for writing: writeback,
 * which takes s_umount shared with a trylock, keeps away meanwhile. s_passive pins only
 * the memory, for walkers of the superblock list (iterate_supers).
 */
#include <cgwb/fs.h>
#include <cgwb/blkdev.h>
#include <cgwb/backing-dev.h>
#include <cgwb/buffer_head.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/printk.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include <cgwb/ext2.h>
#include "vfs.h"

#define SB_HASH_BITS 9

static LIST_HEAD(super_blocks);
static DEFINE_SPINLOCK(sb_lock);
static LIST_HEAD(file_systems);
static DEFINE_SPINLOCK(file_systems_lock);

/* ---------------------------------------------------------------- filesystem types */

struct file_system_type *lookup_fs_type(const char *name)
{
	struct file_system_type *fs, *found = NULL;

	spin_lock(&file_systems_lock);
	list_for_each_entry(fs, &file_systems, node) {
		if (!strcmp(fs->name, name)) {
			found = fs;
			break;
		}
	}
	spin_unlock(&file_systems_lock);
	return found;
}

struct file_system_type *get_fs_type(const char *name)
{
	return lookup_fs_type(name);
}

int register_filesystem(struct file_system_type *fs)
{
	int err = 0;

	BUG_ON(!fs->name || !fs->mount);
	if (lookup_fs_type(fs->name))
		return -EBUSY;
	spin_lock(&file_systems_lock);
	list_add_tail(&fs->node, &file_systems);
	spin_unlock(&file_systems_lock);
	return err;
}

/* Types are never unregistered, so fn may sleep. */
void for_each_fs_type(void (*fn)(struct file_system_type *, void *), void *arg)
{
	struct file_system_type *fs;

	list_for_each_entry(fs, &file_systems, node)
		fn(fs, arg);
}

/* ---------------------------------------------------------------- superblocks */

struct super_block *alloc_super(struct file_system_type *type, int flags)
{
	struct super_block *sb = kzalloc(sizeof(*sb), GFP_KERNEL);

	if (!sb)
		return ERR_PTR(-ENOMEM);
	sb->s_inode_hash_bits = SB_HASH_BITS;
	sb->s_inode_hash = kcalloc(1U << SB_HASH_BITS, sizeof(struct hlist_head), GFP_KERNEL);
	if (!sb->s_inode_hash) {
		kfree(sb);
		return ERR_PTR(-ENOMEM);
	}
	sb->s_type = type;
	sb->s_flags = (unsigned long)flags;
	sb->s_bdi = &noop_backing_dev_info;
	sb->s_maxbytes = LLONG_MAX;
	sb->s_blocksize = PAGE_SIZE;
	sb->s_blocksize_bits = PAGE_SHIFT;
	strlcpy(sb->s_id, type->name, sizeof(sb->s_id));
	init_rwsem(&sb->s_umount);
	down_write(&sb->s_umount);
	sb->s_count = 1;
	sb->s_passive = 1;
	spin_lock_init(&sb->s_inode_list_lock);
	sb->s_inode_list_lock.name = "sb->s_inode_list_lock";
	INIT_LIST_HEAD(&sb->s_inodes);
	INIT_LIST_HEAD(&sb->s_inode_lru);
	spin_lock_init(&sb->s_inode_lru_lock);
	sb->s_inode_lru_lock.name = "sb->s_inode_lru_lock";
	spin_lock_init(&sb->s_inode_wblist_lock);
	sb->s_inode_wblist_lock.name = "sb->s_inode_wblist_lock";
	INIT_LIST_HEAD(&sb->s_inodes_wb);
	mutex_init(&sb->s_sync_lock);
	spin_lock(&sb_lock);
	list_add_tail(&sb->s_list, &super_blocks);
	spin_unlock(&sb_lock);
	return sb;
}

/* Drop a passive reference; the last one frees the (already shut down) superblock. */
static void put_super(struct super_block *sb)
{
	bool last;

	spin_lock(&sb_lock);
	last = --sb->s_passive == 0;
	if (last)
		list_del_init(&sb->s_list);
	spin_unlock(&sb_lock);
	if (!last)
		return;
	kfree(sb->s_inode_hash);
	kfree(sb);
}

/* The live superblock on bdev, pinned (s_passive), or NULL. */
static struct super_block *sb_of_bdev(struct block_device *bdev)
{
	struct super_block *sb, *found = NULL;

	spin_lock(&sb_lock);
	list_for_each_entry(sb, &super_blocks, s_list)
		if (sb->s_bdev == bdev && sb->s_count > 0) {
			found = sb;
			found->s_passive++;
			break;
		}
	spin_unlock(&sb_lock);
	return found;
}

/*
 * A device already mounted: the same filesystem type and read-only flag share its
 * superblock (another active reference, s_umount held for writing as for a new one), as
 * Linux's sget() and mount_bdev(); anything else is -EBUSY.
 */
static struct super_block *share_bdev_super(struct super_block *sb, struct file_system_type *type,
					    int flags)
{
	bool ok = sb->s_type == type && !((flags ^ (int)sb->s_flags) & SB_RDONLY);

	if (ok) {
		down_write(&sb->s_umount); /* a mount still filling it holds it until done */
		ok = sb->s_root && grab_active_super(sb);
		if (!ok)
			up_write(&sb->s_umount);
	}
	put_super(sb);
	return ok ? sb : ERR_PTR(-EBUSY);
}

/* The block device a path names: a /dev block special file, or a bare disk name. */
static struct block_device *lookup_bdev(const char *dev_name, int *err)
{
	struct path path;
	struct block_device *bdev;
	struct inode *inode;

	*err = kern_path(dev_name, LOOKUP_FOLLOW, &path);
	if (*err) {
		struct gendisk *disk = strchr(dev_name, '/') ? NULL : get_disk_by_name(dev_name);
		if (!disk)
			return NULL;
		*err = 0;
		return disk->part0;
	}
	inode = path.dentry->d_inode;
	bdev = S_ISBLK(inode->i_mode) ? blkdev_get_by_dev(inode->i_rdev) : NULL;
	*err = !S_ISBLK(inode->i_mode) ? -ENOTBLK : bdev ? 0 : -ENXIO;
	path_put(&path);
	return bdev;
}

const char *blkdev_probe_fstype(const char *dev_name, int *err)
{
	struct block_device *bdev = lookup_bdev(dev_name, err);
	const char *type = NULL;
	u8 *sb;

	if (!bdev)
		return NULL;
	sb = kmalloc(EXT2_SB_PROBE_BYTES, GFP_KERNEL);
	if (!sb) {
		*err = -ENOMEM;
		return NULL;
	}
	if (blkdev_read_at(bdev, sb, EXT2_SB_PROBE_BYTES, EXT2_SB_PROBE_OFFSET, 0) !=
	    EXT2_SB_PROBE_BYTES)
		*err = -EIO;
	else if (!(type = ext2_probe_fstype(sb)))
		*err = -EINVAL;
	else if (!strcmp(type, "ext3"))
		type = "ext4";
	kfree(sb);
	return type;
}

struct super_block *sget_bdev(struct file_system_type *type, int flags, const char *dev_name)
{
	struct block_device *bdev;
	struct super_block *sb;
	int err;

	bdev = lookup_bdev(dev_name, &err);
	if (!bdev)
		return ERR_PTR(err);
	if (!(flags & SB_RDONLY) && bdev_read_only(bdev))
		return ERR_PTR(-EACCES);
	sb = sb_of_bdev(bdev);
	if (sb)
		return share_bdev_super(sb, type, flags);
	sb = alloc_super(type, flags);
	if (IS_ERR(sb))
		return sb;
	sb->s_bdev = bdev;
	sb->s_dev = bdev->bd_dev;
	sb->s_bdi = bdev->bd_disk->bdi ? bdev->bd_disk->bdi : &noop_backing_dev_info;
	strlcpy(sb->s_id, bdev->bd_disk->disk_name, sizeof(sb->s_id));
	return sb;
}

void generic_shutdown_super(struct super_block *sb)
{
	const struct super_operations *op = sb->s_op;

	if (sb->s_root) {
		shrink_dcache_for_umount(sb);
		sync_filesystem(sb);
		sb->s_flags &= ~SB_ACTIVE;
		/* queued inode wb switches hold inode references: let them finish first */
		cgroup_writeback_umount();
		dput(sb->s_root);
		sb->s_root = NULL;
		if (evict_inodes(sb))
			pr_err("VFS: busy inodes on %s after umount\n", sb->s_id);
		if (op && op->put_super)
			op->put_super(sb);
		if (!list_empty(&sb->s_inodes))
			pr_err("VFS: %s: inodes still cached after umount\n", sb->s_id);
	}
}

void kill_anon_super(struct super_block *sb)
{
	generic_shutdown_super(sb);
}

void kill_litter_super(struct super_block *sb)
{
	if (sb->s_root)
		d_genocide(sb->s_root);
	kill_anon_super(sb);
}

void kill_block_super(struct super_block *sb)
{
	struct block_device *bdev = sb->s_bdev;

	generic_shutdown_super(sb);
	if (bdev) {
		sync_blockdev(bdev);
		invalidate_bdev(bdev);
	}
}

/* The last active reference is gone: s_umount held for writing, released here. */
static void kill_locked_super(struct super_block *sb)
{
	if (sb->s_type->kill_sb)
		sb->s_type->kill_sb(sb);
	else
		kill_anon_super(sb);
	sb->s_bdev = NULL;
	up_write(&sb->s_umount);
	put_super(sb);
}

void deactivate_locked_super(struct super_block *sb)
{
	bool last;

	spin_lock(&sb_lock);
	BUG_ON(sb->s_count <= 0);
	last = --sb->s_count == 0;
	spin_unlock(&sb_lock);
	if (last)
		kill_locked_super(sb);
	else
		up_write(&sb->s_umount);
}

void deactivate_super(struct super_block *sb)
{
	down_write(&sb->s_umount);
	deactivate_locked_super(sb);
}

/* Another mount of an existing superblock; false if it is already going away. */
bool grab_active_super(struct super_block *sb)
{
	bool alive;

	spin_lock(&sb_lock);
	alive = sb->s_count > 0;
	if (alive)
		sb->s_count++;
	spin_unlock(&sb_lock);
	return alive;
}

int set_anon_super(struct super_block *sb)
{
	static unsigned int next_minor;

	sb->s_dev = MKDEV(0, __atomic_add_fetch(&next_minor, 1, __ATOMIC_RELAXED));
	return 0;
}

/*
 * Call fn for each live superblock with s_umount held shared. The sb_lock is dropped
 * around fn, a passive reference keeping the superblock (and its place in the list).
 * Reclaim passes try: it may run inside a mount that holds a new s_umount for writing.
 */
static void __iterate_supers(void (*fn)(struct super_block *, void *), void *arg, bool try)
{
	struct super_block *sb, *prev = NULL;

	spin_lock(&sb_lock);
	list_for_each_entry(sb, &super_blocks, s_list) {
		sb->s_passive++;
		spin_unlock(&sb_lock);
		if (prev)
			put_super(prev);
		if (try ? down_read_trylock(&sb->s_umount) : (down_read(&sb->s_umount), true)) {
			if (sb->s_root && (sb->s_flags & SB_ACTIVE))
				fn(sb, arg);
			up_read(&sb->s_umount);
		}
		prev = sb;
		spin_lock(&sb_lock);
	}
	spin_unlock(&sb_lock);
	if (prev)
		put_super(prev);
}

void iterate_supers(void (*fn)(struct super_block *, void *), void *arg)
{
	__iterate_supers(fn, arg, false);
}

void iterate_supers_trylock(void (*fn)(struct super_block *, void *), void *arg)
{
	__iterate_supers(fn, arg, true);
}
