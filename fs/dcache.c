/*
 * The dentry cache: names of inodes under their parent directory.
 *
 * A dentry holds a reference on its parent (so a parent outlives its children) and on its
 * inode (handed over by d_instantiate). Hashed dentries are findable by (parent, name);
 * d_drop unhashes one that must not be found any more (unlinked, renamed over, stale).
 * When the last reference goes, a hashed positive dentry stays cached on the LRU, unused;
 * anything else (negative, unhashed, cursor) is freed at once. prune_dcache frees unused
 * dentries from the cold end of the LRU under memory pressure, which drops their inodes.
 *
 * One spinlock (dcache_lock) covers the tree, the hash, reference counts and the LRU:
 * the machine has one CPU, and nothing sleeps under it.
 */
#include <cgwb/fs.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/printk.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include "vfs.h"

#define D_HASH_BITS 10

DEFINE_SPINLOCK(dcache_lock);
static struct hlist_head dentry_hashtable[1 << D_HASH_BITS];
static LIST_HEAD(dentry_lru);
static unsigned long nr_dentry, nr_dentry_unused;

static struct hlist_head *d_hash(const struct dentry *parent, const char *name, unsigned int len)
{
	u64 h = (u64)(uintptr_t)parent * 0x9e3779b97f4a7c15ULL;

	for (unsigned int i = 0; i < len; i++)
		h = (h ^ (u8)name[i]) * 0x100000001b3ULL;
	return &dentry_hashtable[(h ^ (h >> 32)) & ((1 << D_HASH_BITS) - 1)];
}

static void __d_rehash(struct dentry *dentry)
{
	hlist_add_head(&dentry->d_hash,
		       d_hash(dentry->d_parent, dentry->d_name.name, dentry->d_name.len));
}

static void d_lru_del(struct dentry *dentry)
{
	if (dentry->d_flags & DCACHE_LRU) {
		list_del_init(&dentry->d_lru);
		dentry->d_flags &= ~DCACHE_LRU;
		nr_dentry_unused--;
	}
}

/* A reference for a caller that found dentry under dcache_lock. */
void dget_dlock(struct dentry *dentry)
{
	BUG_ON(dentry->d_count < 0);
	if (dentry->d_count++ == 0)
		d_lru_del(dentry);
}

static char *d_name_buf(struct dentry *dentry, unsigned int len)
{
	if (len < sizeof(dentry->d_iname))
		return dentry->d_iname;
	return kmalloc(len + 1, GFP_KERNEL);
}

static void d_free_name(struct dentry *dentry, const char *name)
{
	if (name != dentry->d_iname)
		kfree(name);
}

static struct dentry *__d_alloc(struct super_block *sb, const struct qstr *name)
{
	struct dentry *dentry = kzalloc(sizeof(*dentry), GFP_KERNEL);
	char *dname;

	if (!dentry)
		return NULL;
	dname = d_name_buf(dentry, name->len);
	if (!dname) {
		kfree(dentry);
		return NULL;
	}
	memcpy(dname, name->name, name->len);
	dname[name->len] = 0;
	dentry->d_name.name = dname;
	dentry->d_name.len = name->len;
	dentry->d_count = 1;
	dentry->d_parent = dentry;
	dentry->d_sb = sb;
	dentry->d_op = sb->s_d_op;
	INIT_LIST_HEAD(&dentry->d_child);
	INIT_LIST_HEAD(&dentry->d_subdirs);
	INIT_LIST_HEAD(&dentry->d_lru);
	INIT_HLIST_NODE(&dentry->d_hash);
	spin_lock(&dcache_lock);
	nr_dentry++;
	spin_unlock(&dcache_lock);
	return dentry;
}

struct dentry *d_alloc(struct dentry *parent, const struct qstr *name)
{
	struct dentry *dentry = __d_alloc(parent->d_sb, name);

	if (!dentry)
		return NULL;
	spin_lock(&dcache_lock);
	dget_dlock(parent);
	dentry->d_parent = parent;
	list_add(&dentry->d_child, &parent->d_subdirs);
	spin_unlock(&dcache_lock);
	return dentry;
}

/* A readdir position: a child that is never hashed and never a name. */
struct dentry *d_alloc_cursor(struct dentry *parent)
{
	static const struct qstr cursor_name = { .name = "", .len = 0 };
	struct dentry *cursor = d_alloc(parent, &cursor_name);

	if (cursor)
		cursor->d_flags |= DCACHE_CURSOR;
	return cursor;
}

struct dentry *d_make_root(struct inode *root_inode)
{
	static const struct qstr root_name = { .name = "/", .len = 1 };
	struct dentry *root;

	if (!root_inode)
		return NULL;
	root = __d_alloc(root_inode->i_sb, &root_name);
	if (!root) {
		iput(root_inode);
		return NULL;
	}
	d_instantiate(root, root_inode);
	return root;
}

void d_instantiate(struct dentry *dentry, struct inode *inode)
{
	spin_lock(&dcache_lock);
	BUG_ON(dentry->d_inode);
	dentry->d_inode = inode;
	spin_unlock(&dcache_lock);
}

void d_add(struct dentry *dentry, struct inode *inode)
{
	spin_lock(&dcache_lock);
	BUG_ON(dentry->d_inode);
	dentry->d_inode = inode;
	if (d_unhashed(dentry))
		__d_rehash(dentry);
	spin_unlock(&dcache_lock);
}

/*
 * Directories here have a single name each (no hard links to directories, and every
 * filesystem finds a directory only through its one parent), so there is never an alias
 * to splice: the inode simply joins the looked-up dentry.
 */
struct dentry *d_splice_alias(struct inode *inode, struct dentry *dentry)
{
	if (IS_ERR(inode))
		return ERR_PTR(PTR_ERR(inode));
	d_add(dentry, inode);
	return NULL;
}

struct dentry *d_lookup(struct dentry *parent, const struct qstr *name)
{
	struct hlist_head *head = d_hash(parent, name->name, name->len);
	struct dentry *dentry;

	spin_lock(&dcache_lock);
	hlist_for_each_entry(dentry, head, d_hash)
	{
		if (dentry->d_parent != parent || dentry->d_name.len != name->len ||
		    memcmp(dentry->d_name.name, name->name, name->len))
			continue;
		dget_dlock(dentry);
		spin_unlock(&dcache_lock);
		return dentry;
	}
	spin_unlock(&dcache_lock);
	return NULL;
}

struct dentry *dget(struct dentry *dentry)
{
	if (dentry) {
		spin_lock(&dcache_lock);
		dget_dlock(dentry);
		spin_unlock(&dcache_lock);
	}
	return dentry;
}

/*
 * Unlink dentry from everything and free it. Called with dcache_lock held and a count of
 * zero; drops the lock. Returns the parent, whose reference the caller must drop.
 */
static struct dentry *dentry_kill(struct dentry *dentry)
{
	struct dentry *parent = dentry->d_parent == dentry ? NULL : dentry->d_parent;
	struct inode *inode = dentry->d_inode;

	BUG_ON(dentry->d_count != 0);
	BUG_ON(!list_empty(&dentry->d_subdirs));
	hlist_del_init(&dentry->d_hash);
	d_lru_del(dentry);
	list_del_init(&dentry->d_child);
	dentry->d_inode = NULL;
	nr_dentry--;
	spin_unlock(&dcache_lock);

	if (dentry->d_op && dentry->d_op->d_release)
		dentry->d_op->d_release(dentry);
	iput(inode);
	d_free_name(dentry, dentry->d_name.name);
	kfree(dentry);
	return parent;
}

/* Keep an unused dentry cached? Only a hashed, positive name of a live filesystem. */
static bool d_worth_keeping(const struct dentry *dentry)
{
	return !d_unhashed(dentry) && dentry->d_inode && !(dentry->d_flags & DCACHE_CURSOR) &&
	       (dentry->d_sb->s_flags & SB_ACTIVE);
}

void dput(struct dentry *dentry)
{
	while (dentry) {
		spin_lock(&dcache_lock);
		BUG_ON(dentry->d_count <= 0);
		if (--dentry->d_count > 0) {
			spin_unlock(&dcache_lock);
			return;
		}
		if (d_worth_keeping(dentry)) {
			list_add(&dentry->d_lru, &dentry_lru);
			dentry->d_flags |= DCACHE_LRU;
			nr_dentry_unused++;
			spin_unlock(&dcache_lock);
			return;
		}
		dentry = dentry_kill(dentry);
	}
}

void d_drop(struct dentry *dentry)
{
	spin_lock(&dcache_lock);
	hlist_del_init(&dentry->d_hash);
	spin_unlock(&dcache_lock);
}

void d_invalidate(struct dentry *dentry)
{
	d_drop(dentry);
}

/*
 * After unlink/rmdir: if the caller holds the only reference, the name turns negative and
 * the inode is released now; otherwise (open files, cwds) the name is only unhashed and the
 * inode lives until the last of those references goes.
 */
void d_delete(struct dentry *dentry)
{
	struct inode *inode = NULL;

	spin_lock(&dcache_lock);
	if (dentry->d_count == 1) {
		inode = dentry->d_inode;
		dentry->d_inode = NULL;
	}
	hlist_del_init(&dentry->d_hash);
	spin_unlock(&dcache_lock);
	iput(inode);
}

/*
 * Rename: dentry takes target's parent and name; target is unhashed (it is the replaced
 * name, if any, and its caller drops it).
 */
void d_move(struct dentry *dentry, struct dentry *target)
{
	unsigned int len = target->d_name.len;
	char *ext = NULL, *name;
	struct dentry *old_parent = NULL;
	const char *old_name;

	if (len >= sizeof(dentry->d_iname)) {
		ext = kmalloc(len + 1, GFP_KERNEL);
		if (!ext) {
			/* keep the old name, unhashed: the next lookup asks the filesystem */
			d_drop(dentry);
			d_drop(target);
			return;
		}
	}
	spin_lock(&dcache_lock);
	hlist_del_init(&dentry->d_hash);
	hlist_del_init(&target->d_hash);
	old_name = dentry->d_name.name;
	name = ext ? ext : dentry->d_iname;
	memcpy(name, target->d_name.name, len);
	name[len] = 0;
	dentry->d_name.name = name;
	dentry->d_name.len = len;
	if (dentry->d_parent != target->d_parent) {
		old_parent = dentry->d_parent;
		dget_dlock(target->d_parent);
		dentry->d_parent = target->d_parent;
		list_move(&dentry->d_child, &target->d_parent->d_subdirs);
	}
	__d_rehash(dentry);
	spin_unlock(&dcache_lock);
	d_free_name(dentry, old_name);
	dput(old_parent);
}

unsigned long prune_dcache(unsigned long nr)
{
	unsigned long freed = 0;

	spin_lock(&dcache_lock);
	while (nr-- && !list_empty(&dentry_lru)) {
		struct dentry *dentry = list_last_entry(&dentry_lru, struct dentry, d_lru);

		WARN_ON_ONCE(dentry->d_count);
		dentry = dentry_kill(dentry);
		freed++;
		dput(dentry);
		spin_lock(&dcache_lock);
	}
	spin_unlock(&dcache_lock);
	return freed;
}

unsigned long nr_dentries_cached(void)
{
	return READ_ONCE(nr_dentry);
}

void d_set_mounted(struct dentry *dentry)
{
	spin_lock(&dcache_lock);
	dentry->d_flags |= DCACHE_MOUNTED;
	spin_unlock(&dcache_lock);
}

void d_clear_mounted(struct dentry *dentry)
{
	spin_lock(&dcache_lock);
	dentry->d_flags &= ~DCACHE_MOUNTED;
	spin_unlock(&dcache_lock);
}

bool is_subdir(struct dentry *dentry, struct dentry *ancestor)
{
	bool found = false;

	spin_lock(&dcache_lock);
	for (;;) {
		if (dentry == ancestor) {
			found = true;
			break;
		}
		if (dentry->d_parent == dentry)
			break;
		dentry = dentry->d_parent;
	}
	spin_unlock(&dcache_lock);
	return found;
}

/* The next dentry of a depth-first walk of root's tree (pre-order), or NULL. dcache_lock held. */
static struct dentry *d_walk_next(struct dentry *root, struct dentry *d)
{
	if (!list_empty(&d->d_subdirs))
		return list_first_entry(&d->d_subdirs, struct dentry, d_child);
	while (d != root) {
		if (d->d_child.next != &d->d_parent->d_subdirs)
			return list_entry(d->d_child.next, struct dentry, d_child);
		d = d->d_parent;
	}
	return NULL;
}

void d_genocide(struct dentry *root)
{
	spin_lock(&dcache_lock);
	for (struct dentry *d = d_walk_next(root, root); d; d = d_walk_next(root, d)) {
		if (d->d_flags & DCACHE_PINNED) {
			d->d_flags &= ~DCACHE_PINNED;
			d->d_count--;
		}
	}
	spin_unlock(&dcache_lock);
}

/* A descendant of root with no children and no references, or NULL. dcache_lock held. */
static struct dentry *find_unused_leaf(struct dentry *root)
{
	for (struct dentry *d = d_walk_next(root, root); d; d = d_walk_next(root, d))
		if (list_empty(&d->d_subdirs) && d->d_count == 0)
			return d;
	return NULL;
}

static void shrink_tree(struct dentry *root)
{
	for (;;) {
		struct dentry *victim, *parent;

		spin_lock(&dcache_lock);
		victim = find_unused_leaf(root);
		if (!victim) {
			spin_unlock(&dcache_lock);
			return;
		}
		parent = dentry_kill(victim);
		/* the parent's reference from its child: no LRU, the walk frees it next */
		spin_lock(&dcache_lock);
		parent->d_count--;
		spin_unlock(&dcache_lock);
	}
}

/*
 * rmdir, before the filesystem's: the unused names below a directory that goes would stay
 * cached under it until memory ran short (a removed cgroup's files, a dozen each), as
 * Linux's vfs_rmdir knows. Those in use stay.
 */
void shrink_dcache_parent(struct dentry *parent)
{
	shrink_tree(parent);
}

static void report_busy(struct dentry *root)
{
	spin_lock(&dcache_lock);
	for (struct dentry *d = d_walk_next(root, root); d; d = d_walk_next(root, d))
		pr_err("VFS: dentry '%s' of %s still in use (%d) at umount\n", d->d_name.name,
		       root->d_sb->s_id, d->d_count);
	spin_unlock(&dcache_lock);
}

void shrink_dcache_for_umount(struct super_block *sb)
{
	struct dentry *root = sb->s_root;

	if (!root)
		return;
	shrink_tree(root);
	if (WARN_ON(!list_empty(&root->d_subdirs)))
		report_busy(root);
}

/* ---------------------------------------------------------------- d_path */

/* Prepend "/name" to the string ending at *end (which grows leftwards from buf + size). */
static int prepend(char **end, char *buf, const char *name, unsigned int len)
{
	if ((size_t)(*end - buf) < len + 1)
		return -ENAMETOOLONG;
	*end -= len;
	memcpy(*end, name, len);
	*--*end = '/';
	return 0;
}

static int prepend_path(const struct path *path, char *buf, size_t size, char **start)
{
	struct dentry *dentry = path->dentry;
	struct vfsmount *mnt = path->mnt;
	char *end = buf + size;
	int err = 0;

	*--end = 0;
	spin_lock(&dcache_lock);
	while (!err) {
		if (dentry == mnt->mnt_root) {
			if (mnt->mnt_parent == mnt || !mnt->mnt_parent)
				break;
			dentry = mnt->mnt_mountpoint;
			mnt = mnt->mnt_parent;
			continue;
		}
		if (dentry->d_parent == dentry)
			break; /* a detached tree */
		err = prepend(&end, buf, dentry->d_name.name, dentry->d_name.len);
		dentry = dentry->d_parent;
	}
	spin_unlock(&dcache_lock);
	if (!err && !*end) {
		if (end == buf)
			return -ENAMETOOLONG;
		*--end = '/';
	}
	*start = end;
	return err;
}

int d_path(const struct path *path, char *buf, size_t size)
{
	static const char deleted[] = " (deleted)";
	char *start;
	int err;

	if (size < 2)
		return -ENAMETOOLONG;
	err = prepend_path(path, buf, size, &start);
	if (err)
		return err;
	memmove(buf, start, strlen(start) + 1);
	if (d_unhashed(path->dentry) && path->dentry != path->mnt->mnt_root &&
	    path->dentry->d_parent != path->dentry) {
		if (strlen(buf) + sizeof(deleted) > size)
			return -ENAMETOOLONG;
		strlcat(buf, deleted, size);
	}
	return 0;
}
