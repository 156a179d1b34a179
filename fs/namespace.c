/*
 * The mount tree: one namespace, rooted at the rootfs mount.
 *
 * A vfsmount joins a superblock's root to a mountpoint (a dentry of the parent mount). Its
 * mnt_count is one for being in the tree plus one per holder of a path inside it (open
 * files, working directories, walks in progress): umount refuses (EBUSY) while anything
 * but the tree and the caller holds it, or while another mount sits below it. An attached
 * mount holds references on its parent mount and its mountpoint dentry.
 *
 * namespace_sem serialises mount, umount and walkers of the list (for_each_mount);
 * mount_lock (a spinlock) covers the list and the counts, so a walk crossing into a mount
 * and umount's busy check cannot interleave.
 */
#include <cgwb/fs.h>
#include <cgwb/printk.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include "vfs.h"

struct vfsmount *root_mnt;
static LIST_HEAD(mounts);
static DEFINE_SPINLOCK(mount_lock);
static DEFINE_MUTEX(namespace_sem);

struct vfsmount *mntget(struct vfsmount *mnt)
{
	if (mnt) {
		spin_lock(&mount_lock);
		BUG_ON(mnt->mnt_count <= 0);
		mnt->mnt_count++;
		spin_unlock(&mount_lock);
	}
	return mnt;
}

static void free_mnt(struct vfsmount *mnt)
{
	struct super_block *sb = mnt->mnt_sb;

	dput(mnt->mnt_root);
	kfree(mnt);
	deactivate_super(sb);
}

void mntput(struct vfsmount *mnt)
{
	bool last;

	if (!mnt)
		return;
	spin_lock(&mount_lock);
	BUG_ON(mnt->mnt_count <= 0);
	last = --mnt->mnt_count == 0;
	spin_unlock(&mount_lock);
	if (last)
		free_mnt(mnt);
}

void path_get(const struct path *path)
{
	mntget(path->mnt);
	dget(path->dentry);
}

void path_put(const struct path *path)
{
	dput(path->dentry);
	mntput(path->mnt);
}

void get_fs_root(struct path *root)
{
	root->mnt = root_mnt;
	root->dentry = root_mnt->mnt_root;
	path_get(root);
}

bool mnt_is_readonly(const struct vfsmount *mnt)
{
	return (mnt->mnt_flags & MNT_READONLY) || (mnt->mnt_sb->s_flags & SB_RDONLY);
}

const char *mnt_fstype(const struct vfsmount *mnt)
{
	return mnt->mnt_sb->s_type->name;
}

struct vfsmount *lookup_mnt(const struct path *path)
{
	struct vfsmount *m, *found = NULL;

	spin_lock(&mount_lock);
	list_for_each_entry_reverse(m, &mounts, mnt_list) {
		if (m->mnt_parent == path->mnt && m->mnt_mountpoint == path->dentry &&
		    m != path->mnt) {
			m->mnt_count++;
			found = m;
			break;
		}
	}
	spin_unlock(&mount_lock);
	return found;
}

struct vfsmount *vfs_kern_mount(struct file_system_type *type, int flags, const char *dev_name,
				void *data)
{
	struct super_block *sb;
	struct vfsmount *mnt = kzalloc(sizeof(*mnt), GFP_KERNEL);

	if (!mnt)
		return ERR_PTR(-ENOMEM);
	sb = type->mount(type, flags, dev_name ? dev_name : "none", data);
	if (IS_ERR_OR_NULL(sb)) {
		kfree(mnt);
		return sb ? ERR_PTR(PTR_ERR(sb)) : ERR_PTR(-EINVAL);
	}
	BUG_ON(!sb->s_root);
	sb->s_flags |= SB_ACTIVE;
	mnt->mnt_sb = sb;
	mnt->mnt_root = dget(sb->s_root);
	mnt->mnt_parent = mnt;
	mnt->mnt_mountpoint = mnt->mnt_root;
	mnt->mnt_count = 1;
	if (flags & SB_RDONLY)
		mnt->mnt_flags |= MNT_READONLY;
	strlcpy(mnt->mnt_devname, dev_name ? dev_name : type->name, sizeof(mnt->mnt_devname));
	INIT_LIST_HEAD(&mnt->mnt_list);
	up_write(&sb->s_umount);
	return mnt;
}

/* Put mnt on mountpoint; the mountpoint's references move into the mount. */
static void attach_mnt(struct vfsmount *mnt, struct path *mountpoint)
{
	d_set_mounted(mountpoint->dentry);
	spin_lock(&mount_lock);
	mnt->mnt_parent = mountpoint->mnt;
	mnt->mnt_mountpoint = mountpoint->dentry;
	list_add_tail(&mnt->mnt_list, &mounts);
	spin_unlock(&mount_lock);
}

int do_mount(const char *dev_name, const char *dir_name, const char *type, unsigned long flags,
	     void *data)
{
	struct file_system_type *fs = lookup_fs_type(type);
	struct vfsmount *mnt;
	struct path mp;
	int err;

	if (!fs)
		return -ENODEV;
	err = kern_path(dir_name, LOOKUP_FOLLOW | LOOKUP_DIRECTORY, &mp);
	if (err)
		return err;
	mutex_lock(&namespace_sem);
	mnt = vfs_kern_mount(fs, (int)flags, dev_name, data);
	if (IS_ERR(mnt)) {
		mutex_unlock(&namespace_sem);
		path_put(&mp);
		return (int)PTR_ERR(mnt);
	}
	attach_mnt(mnt, &mp);
	mutex_unlock(&namespace_sem);
	return 0;
}

/* Does any other mount still sit on dentry? mount_lock held. */
static bool dentry_still_mounted(struct dentry *dentry)
{
	struct vfsmount *m;

	list_for_each_entry(m, &mounts, mnt_list)
		if (m->mnt_mountpoint == dentry)
			return true;
	return false;
}

static bool mnt_has_children(struct vfsmount *mnt)
{
	struct vfsmount *m;

	list_for_each_entry(m, &mounts, mnt_list)
		if (m->mnt_parent == mnt && m != mnt)
			return true;
	return false;
}

/* Take mnt out of the tree if only the tree and the caller (path) hold it. */
static int umount_tree_locked(struct vfsmount *mnt, struct path *old_mountpoint)
{
	bool still;

	spin_lock(&mount_lock);
	if (mnt->mnt_count > 2 || mnt_has_children(mnt)) {
		spin_unlock(&mount_lock);
		return -EBUSY;
	}
	list_del_init(&mnt->mnt_list);
	mnt->mnt_count--; /* the tree's reference */
	old_mountpoint->mnt = mnt->mnt_parent;
	old_mountpoint->dentry = mnt->mnt_mountpoint;
	mnt->mnt_parent = mnt;
	mnt->mnt_mountpoint = mnt->mnt_root;
	still = dentry_still_mounted(old_mountpoint->dentry);
	spin_unlock(&mount_lock);
	if (!still)
		d_clear_mounted(old_mountpoint->dentry);
	return 0;
}

int do_umount(const char *dir_name, int flags)
{
	struct path path, old_mp;
	int err;

	(void)flags;
	err = kern_path(dir_name, LOOKUP_FOLLOW, &path);
	if (err)
		return err;
	if (path.dentry != path.mnt->mnt_root) {
		path_put(&path);
		return -EINVAL;
	}
	if (path.mnt == root_mnt) {
		path_put(&path);
		return -EBUSY;
	}
	mutex_lock(&namespace_sem);
	err = umount_tree_locked(path.mnt, &old_mp);
	mutex_unlock(&namespace_sem);
	if (!err) {
		path_put(&old_mp);
		/*
		 * Detached, not yet shut down: sync now so that a writeback error nobody was told
		 * of is reported here, once. The filesystem is unmounted all the same.
		 */
		err = sync_filesystem(path.mnt->mnt_sb);
		if (err)
			pr_err("VFS: %s: writeback error %d found at umount\n",
			       path.mnt->mnt_sb->s_id, err);
	}
	path_put(&path); /* the last reference: the superblock goes down now */
	return err;
}

void for_each_mount(void (*fn)(struct vfsmount *, void *), void *arg)
{
	struct vfsmount *m;

	mutex_lock(&namespace_sem);
	fn(root_mnt, arg);
	list_for_each_entry(m, &mounts, mnt_list)
		fn(m, arg);
	mutex_unlock(&namespace_sem);
}

/* The root filesystem: a mount that is its own parent. */
int mount_root(const char *type)
{
	struct file_system_type *fs = lookup_fs_type(type);
	struct vfsmount *mnt;

	if (!fs)
		return -ENODEV;
	mnt = vfs_kern_mount(fs, 0, type, NULL);
	if (IS_ERR(mnt))
		return (int)PTR_ERR(mnt);
	root_mnt = mnt;
	return 0;
}
