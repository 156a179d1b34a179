/*
 * The pseudo filesystem tree: nodes, their names and their lifetimes (see
 * include/cgwb/pseudofs.h). pseudo_mutex covers the structure (children lists, names,
 * removal); pseudo_lock, a spinlock, the counts, which inode eviction drops.
 */
#include <cgwb/pseudofs.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/mutex.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include "internal.h"

static DEFINE_MUTEX(pseudo_mutex);
static DEFINE_SPINLOCK(pseudo_lock);
static DECLARE_WAIT_QUEUE_HEAD(pseudo_drain_wq);

void pseudo_get(struct pseudo_node *node)
{
	spin_lock(&pseudo_lock);
	BUG_ON(node->refcount <= 0);
	node->refcount++;
	spin_unlock(&pseudo_lock);
}

void pseudo_put(struct pseudo_node *node)
{
	while (node) {
		struct pseudo_node *parent;
		bool last;

		spin_lock(&pseudo_lock);
		BUG_ON(node->refcount <= 0);
		last = --node->refcount == 0;
		spin_unlock(&pseudo_lock);
		if (!last)
			return;
		WARN_ON(!list_empty(&node->children));
		parent = node->parent;
		kfree(node->name);
		kfree(node->link_target);
		kfree(node);
		node = parent;
	}
}

bool pseudo_get_active(struct pseudo_node *node)
{
	bool ok;

	spin_lock(&pseudo_lock);
	ok = !node->removed;
	if (ok)
		node->active++;
	spin_unlock(&pseudo_lock);
	return ok;
}

void pseudo_put_active(struct pseudo_node *node)
{
	bool wake;

	spin_lock(&pseudo_lock);
	BUG_ON(node->active <= 0);
	wake = --node->active == 0 && node->removed;
	spin_unlock(&pseudo_lock);
	if (wake)
		wake_up_all(&pseudo_drain_wq);
}

static struct pseudo_node *node_alloc(const char *name, umode_t mode)
{
	struct pseudo_node *node = kzalloc(sizeof(*node), GFP_KERNEL);

	if (!node)
		return NULL;
	node->name = kstrdup(name, GFP_KERNEL);
	if (!node->name) {
		kfree(node);
		return NULL;
	}
	node->mode = mode;
	node->ino = get_next_ino();
	node->refcount = 1; /* the tree's */
	INIT_LIST_HEAD(&node->children);
	INIT_LIST_HEAD(&node->sibling);
	return node;
}

/* pseudo_mutex held. */
static struct pseudo_node *find_child(struct pseudo_node *dir, const char *name, size_t len)
{
	struct pseudo_node *child;

	list_for_each_entry(child, &dir->children, sibling)
		if (strlen(child->name) == len && !memcmp(child->name, name, len))
			return child;
	return NULL;
}

struct pseudo_node *pseudo_child_get(struct pseudo_node *dir, const char *name, size_t len)
{
	struct pseudo_node *child;

	mutex_lock(&pseudo_mutex);
	child = find_child(dir, name, len);
	if (child)
		pseudo_get(child);
	mutex_unlock(&pseudo_mutex);
	return child;
}

bool pseudo_child_at(struct pseudo_node *dir, loff_t index, char *buf, unsigned long *ino,
		     umode_t *mode)
{
	struct pseudo_node *child;
	bool found = false;

	mutex_lock(&pseudo_mutex);
	list_for_each_entry(child, &dir->children, sibling) {
		if (index-- == 0) {
			strlcpy(buf, child->name, NAME_MAX + 1);
			*ino = child->ino;
			*mode = child->mode;
			found = true;
			break;
		}
	}
	mutex_unlock(&pseudo_mutex);
	return found;
}

/* Link a new node under parent; on failure the node is freed. */
static struct pseudo_node *node_add(struct pseudo_node *parent, struct pseudo_node *node)
{
	int err = 0;

	if (!node)
		return ERR_PTR(-ENOMEM);
	mutex_lock(&pseudo_mutex);
	if (parent->removed)
		err = -ENOENT;
	else if (!S_ISDIR(parent->mode))
		err = -ENOTDIR;
	else if (find_child(parent, node->name, strlen(node->name)))
		err = -EEXIST;
	if (!err) {
		pseudo_get(parent);
		node->parent = parent;
		node->fs = parent->fs;
		list_add_tail(&node->sibling, &parent->children);
	}
	mutex_unlock(&pseudo_mutex);
	if (err) {
		pseudo_put(node);
		return ERR_PTR(err);
	}
	return node;
}

static bool valid_name(const char *name)
{
	size_t len = strlen(name);

	return len && len <= NAME_MAX && !strchr(name, '/') && strcmp(name, ".") &&
	       strcmp(name, "..");
}

struct pseudo_node *pseudo_mkdir_ops(struct pseudo_node *parent, const char *name,
				     const struct pseudo_dir_ops *ops, void *private)
{
	struct pseudo_node *node;

	if (!valid_name(name))
		return ERR_PTR(-EINVAL);
	node = node_alloc(name, S_IFDIR | 0555);
	if (node) {
		node->dir_ops = ops;
		node->private = private;
		if (ops && ops->mkdir)
			node->mode |= 0200;
	}
	return node_add(parent, node);
}

struct pseudo_node *pseudo_mkdir(struct pseudo_node *parent, const char *name)
{
	return pseudo_mkdir_ops(parent, name, NULL, NULL);
}

static struct pseudo_node *create_file(struct pseudo_node *parent, const char *name, umode_t mode,
				       pseudo_show_t show, pseudo_store_t store, void *private,
				       bool stream)
{
	struct pseudo_node *node;

	if (!valid_name(name) || (!show && !store))
		return ERR_PTR(-EINVAL);
	node = node_alloc(name, S_IFREG | (mode & 0777));
	if (node) {
		node->show = show;
		node->store = store;
		node->private = private;
		node->stream = stream;
	}
	return node_add(parent, node);
}

struct pseudo_node *pseudo_create_file(struct pseudo_node *parent, const char *name, umode_t mode,
				       pseudo_show_t show, pseudo_store_t store, void *private)
{
	return create_file(parent, name, mode, show, store, private, false);
}

struct pseudo_node *pseudo_create_stream(struct pseudo_node *parent, const char *name, umode_t mode,
					 pseudo_show_t show, void *private)
{
	if (!show)
		return ERR_PTR(-EINVAL);
	return create_file(parent, name, mode, show, NULL, private, true);
}

void pseudo_set_truncate(struct pseudo_node *file, pseudo_truncate_t truncate)
{
	BUG_ON(!S_ISREG(file->mode) || !file->store);
	file->truncate = truncate;
}

struct pseudo_node *pseudo_symlink(struct pseudo_node *parent, const char *name, const char *target)
{
	struct pseudo_node *node;

	if (!valid_name(name) || !*target)
		return ERR_PTR(-EINVAL);
	node = node_alloc(name, S_IFLNK | 0777);
	if (node) {
		node->link_target = kstrdup(target, GFP_KERNEL);
		if (!node->link_target) {
			pseudo_put(node);
			return ERR_PTR(-ENOMEM);
		}
	}
	return node_add(parent, node);
}

struct pseudo_node *pseudo_lookup(struct pseudo_node *dir, const char *path)
{
	mutex_lock(&pseudo_mutex);
	while (dir && *path) {
		size_t len = strcspn(path, "/");

		dir = len ? find_child(dir, path, len) : dir;
		path += len;
		while (*path == '/')
			path++;
	}
	mutex_unlock(&pseudo_mutex);
	return dir;
}

struct pseudo_node *pseudo_mkdir_p(struct pseudo_node *parent, const char *path)
{
	char name[NAME_MAX + 1];

	while (*path) {
		size_t len = strcspn(path, "/");
		struct pseudo_node *next;

		if (len > NAME_MAX)
			return ERR_PTR(-ENAMETOOLONG);
		if (len) {
			memcpy(name, path, len);
			name[len] = 0;
			next = pseudo_lookup(parent, name);
			if (!next)
				next = pseudo_mkdir(parent, name);
			if (IS_ERR(next))
				return next;
			parent = next;
		}
		path += len;
		while (*path == '/')
			path++;
	}
	return parent;
}

/* Mark node and its subtree removed. pseudo_mutex held. */
static void mark_removed(struct pseudo_node *node)
{
	struct pseudo_node *child;

	spin_lock(&pseudo_lock);
	node->removed = true;
	spin_unlock(&pseudo_lock);
	list_for_each_entry(child, &node->children, sibling)
		mark_removed(child);
}

/* Wait until no callback of the (detached, frozen) subtree runs. */
static void drain(struct pseudo_node *node)
{
	struct pseudo_node *child;

	wait_event(pseudo_drain_wq, READ_ONCE(node->active) == 0);
	list_for_each_entry(child, &node->children, sibling)
		drain(child);
}

/* Drop the tree's references, children first. */
static void release_tree(struct pseudo_node *node)
{
	while (!list_empty(&node->children)) {
		struct pseudo_node *child =
			list_first_entry(&node->children, struct pseudo_node, sibling);
		list_del_init(&child->sibling);
		release_tree(child);
	}
	pseudo_put(node);
}

void pseudo_remove(struct pseudo_node *node)
{
	if (IS_ERR_OR_NULL(node))
		return;
	mutex_lock(&pseudo_mutex);
	if (node->removed || !node->parent) {
		mutex_unlock(&pseudo_mutex);
		return;
	}
	mark_removed(node);
	list_del_init(&node->sibling);
	mutex_unlock(&pseudo_mutex);
	drain(node);
	release_tree(node);
}

/* Remove, one by one, the children of dir whose names start with prefix. */
static bool pseudo_name_ends_with(const char *name, const char *suffix)
{
	size_t n = strlen(name), m = suffix ? strlen(suffix) : 0;

	return suffix && n >= m && !strcmp(name + n - m, suffix);
}

void pseudo_remove_prefixed(struct pseudo_node *dir, const char *prefix)
{
	pseudo_remove_prefixed_except(dir, prefix, NULL);
}

void pseudo_remove_prefixed_except(struct pseudo_node *dir, const char *prefix,
				   const char *keep_suffix)
{
	size_t len = strlen(prefix);

	for (;;) {
		struct pseudo_node *child, *found = NULL;

		mutex_lock(&pseudo_mutex);
		list_for_each_entry(child, &dir->children, sibling) {
			if (!strncmp(child->name, prefix, len) &&
			    !pseudo_name_ends_with(child->name, keep_suffix)) {
				found = child;
				pseudo_get(found);
				break;
			}
		}
		mutex_unlock(&pseudo_mutex);
		if (!found)
			return;
		pseudo_remove(found);
		pseudo_put(found);
	}
}

void pseudo_set_dir_ops(struct pseudo_node *dir, const struct pseudo_dir_ops *ops, void *private)
{
	mutex_lock(&pseudo_mutex);
	dir->dir_ops = ops;
	dir->private = private;
	if (ops && ops->mkdir)
		dir->mode |= 0200;
	mutex_unlock(&pseudo_mutex);
}

void *pseudo_private(const struct pseudo_node *node)
{
	return node->private;
}

const char *pseudo_name(const struct pseudo_node *node)
{
	return node->name;
}

struct pseudo_node *pseudo_parent(const struct pseudo_node *node)
{
	return node->parent;
}

struct pseudo_node *pseudo_fs_register(const char *fs_name, unsigned long magic)
{
	struct pseudo_fs *fs = kzalloc(sizeof(*fs), GFP_KERNEL);

	if (!fs)
		return ERR_PTR(-ENOMEM);
	fs->root = node_alloc("", S_IFDIR | 0555);
	if (!fs->root) {
		kfree(fs);
		return ERR_PTR(-ENOMEM);
	}
	fs->root->fs = fs;
	fs->type.name = fs_name;
	fs->magic = magic;
	if (pseudo_register_type(fs)) {
		pseudo_put(fs->root);
		kfree(fs);
		return ERR_PTR(-EBUSY);
	}
	return fs->root;
}
