/*
 * Path walk: from the root ('/...') or the task's working directory, one component at a
 * time. "." stays, ".." goes to the parent (up through a mount root to its mountpoint,
 * never above the namespace root); a name is looked up in the dcache first, then by the
 * directory's ->lookup with the directory locked; a mountpoint is crossed down to the
 * topmost mount on it; a symlink in the middle (or at the end, with LOOKUP_FOLLOW or a
 * trailing '/') is followed from the directory that holds it, at most MAX_SYMLINK_DEPTH
 * deep and MAX_LINKS in total (ELOOP).
 *
 * nd->path always holds a reference (mount and dentry) on where the walk stands.
 */
#include <cgwb/fs.h>
#include <cgwb/slab.h>
#include <cgwb/string.h>
#include <cgwb/errno.h>
#include <cgwb/bug.h>
#include "vfs.h"

#define MAX_LINKS 40

struct walk {
	struct nameidata *nd;
	int total_links;
};

static struct dentry *dget_parent(struct dentry *dentry)
{
	struct dentry *parent;

	spin_lock(&dcache_lock);
	parent = dentry->d_parent;
	spin_unlock(&dcache_lock);
	return dget(parent);
}

/* Go down through every mount stacked on path. */
static void follow_mount(struct path *path)
{
	while (d_mountpoint(path->dentry)) {
		struct vfsmount *m = lookup_mnt(path);

		if (!m)
			break;
		path_put(path);
		path->mnt = m;
		path->dentry = dget(m->mnt_root);
	}
}

static void follow_dotdot(struct nameidata *nd)
{
	for (;;) {
		struct path *p = &nd->path;

		if (p->mnt == root_mnt && p->dentry == root_mnt->mnt_root)
			break;
		if (p->dentry != p->mnt->mnt_root) {
			struct dentry *parent = dget_parent(p->dentry);

			dput(p->dentry);
			p->dentry = parent;
			break;
		}
		if (p->mnt->mnt_parent == p->mnt)
			break; /* a detached mount: its root is as high as it goes */
		struct path up = { .mnt = p->mnt->mnt_parent, .dentry = p->mnt->mnt_mountpoint };
		path_get(&up);
		path_put(p);
		*p = up;
	}
	follow_mount(&nd->path);
}

static bool d_still_valid(struct dentry *dentry)
{
	return !dentry->d_op || !dentry->d_op->d_revalidate || dentry->d_op->d_revalidate(dentry);
}

static bool dir_is_dead(struct dentry *dir)
{
	return d_unhashed(dir) && dir->d_parent != dir;
}

/* Look name up in base, whose inode the caller has locked. */
static struct dentry *lookup_hash_locked(const struct qstr *name, struct dentry *base)
{
	struct inode *dir = base->d_inode;
	struct dentry *dentry = d_lookup(base, name), *old;

	if (dentry) {
		if (d_still_valid(dentry))
			return dentry;
		d_invalidate(dentry);
		dput(dentry);
	}
	if (dir_is_dead(base))
		return ERR_PTR(-ENOENT);
	if (!dir->i_op->lookup)
		return ERR_PTR(-ENOTDIR);
	dentry = d_alloc(base, name);
	if (!dentry)
		return ERR_PTR(-ENOMEM);
	old = dir->i_op->lookup(dir, dentry);
	if (old) {
		dput(dentry);
		dentry = old;
	}
	return dentry;
}

static struct dentry *lookup_dentry(struct dentry *base, const struct qstr *name)
{
	struct dentry *dentry = d_lookup(base, name);

	if (dentry) {
		if (d_still_valid(dentry))
			return dentry;
		d_invalidate(dentry);
		dput(dentry);
	}
	inode_lock(base->d_inode);
	dentry = lookup_hash_locked(name, base);
	inode_unlock(base->d_inode);
	return dentry;
}

struct dentry *lookup_one_len(const char *name, struct dentry *base, int len)
{
	struct qstr q = { .name = name, .len = (unsigned int)len };

	if (!len || memchr(name, '/', (size_t)len) || (len == 1 && name[0] == '.') ||
	    (len == 2 && name[0] == '.' && name[1] == '.'))
		return ERR_PTR(-EACCES);
	if (len > NAME_MAX)
		return ERR_PTR(-ENAMETOOLONG);
	return lookup_hash_locked(&q, base);
}

struct dentry *lookup_last_locked(struct nameidata *nd)
{
	return lookup_hash_locked(&nd->last, nd->path.dentry);
}

char *vfs_get_link(struct dentry *dentry)
{
	struct inode *inode = dentry->d_inode;
	char *buf;
	int n;

	if (!inode->i_op->readlink)
		return ERR_PTR(-EINVAL);
	buf = kmalloc(PATH_MAX, GFP_KERNEL);
	if (!buf)
		return ERR_PTR(-ENOMEM);
	n = inode->i_op->readlink(dentry, buf, PATH_MAX);
	if (n < 0) {
		kfree(buf);
		return ERR_PTR(n);
	}
	buf[min(n, PATH_MAX - 1)] = 0;
	return buf;
}

static int walk_component(struct walk *w, const struct qstr *name, bool follow);
static int link_path_walk(struct walk *w, const char *name, struct qstr *last, bool *trailing);

/* Follow the symlink at link, standing in the directory that holds it. */
static int follow_link(struct walk *w, struct path *link)
{
	struct nameidata *nd = w->nd;
	struct qstr last;
	bool trailing;
	char *body;
	int err;

	if (nd->depth >= MAX_SYMLINK_DEPTH || ++w->total_links > MAX_LINKS)
		return -ELOOP;
	body = vfs_get_link(link->dentry);
	if (IS_ERR(body))
		return (int)PTR_ERR(body);
	nd->depth++;
	err = *body ? link_path_walk(w, body, &last, &trailing) : -ENOENT;
	if (!err && last.len)
		err = walk_component(w, &last, true);
	if (!err && trailing && !S_ISDIR(nd->path.dentry->d_inode->i_mode))
		err = -ENOTDIR;
	nd->depth--;
	kfree(body);
	return err;
}

/* Move nd one component down (or up, for ".."). */
static int walk_component(struct walk *w, const struct qstr *name, bool follow)
{
	struct nameidata *nd = w->nd;
	struct path next;
	struct dentry *dentry;
	int err = 0;

	if (!S_ISDIR(nd->path.dentry->d_inode->i_mode))
		return -ENOTDIR;
	if (name->len == 1 && name->name[0] == '.')
		return 0;
	if (name->len == 2 && name->name[0] == '.' && name->name[1] == '.') {
		follow_dotdot(nd);
		return 0;
	}
	if (name->len > NAME_MAX)
		return -ENAMETOOLONG;
	dentry = lookup_dentry(nd->path.dentry, name);
	if (IS_ERR(dentry))
		return (int)PTR_ERR(dentry);
	if (!dentry->d_inode) {
		dput(dentry);
		return -ENOENT;
	}
	next.mnt = mntget(nd->path.mnt);
	next.dentry = dentry;
	follow_mount(&next);
	if (S_ISLNK(next.dentry->d_inode->i_mode) && follow) {
		err = follow_link(w, &next);
		path_put(&next);
		return err;
	}
	path_put(&nd->path);
	nd->path = next;
	return 0;
}

/*
 * Walk every component of name but the last, which goes to *last (empty for "/"), with
 * *trailing telling whether name ended in '/'.
 */
static int link_path_walk(struct walk *w, const char *name, struct qstr *last, bool *trailing)
{
	struct nameidata *nd = w->nd;

	if (*name == '/') {
		path_put(&nd->path);
		get_fs_root(&nd->path);
		while (*name == '/')
			name++;
	}
	last->name = name;
	last->len = 0;
	*trailing = false;
	while (*name) {
		struct qstr comp = { .name = name, .len = (unsigned int)strcspn(name, "/") };
		bool slash;
		int err;

		if (comp.len > NAME_MAX)
			return -ENAMETOOLONG;
		name += comp.len;
		slash = *name == '/';
		while (*name == '/')
			name++;
		if (!*name) {
			*last = comp;
			*trailing = slash;
			return 0;
		}
		err = walk_component(w, &comp, true);
		if (err)
			return err;
	}
	return 0;
}

static int nd_start(struct nameidata *nd, const struct path *base, const char *name)
{
	memset(nd, 0, sizeof(*nd));
	if (!*name)
		return -ENOENT;
	if (strnlen(name, PATH_MAX) >= PATH_MAX)
		return -ENAMETOOLONG;
	if (*name == '/') {
		get_fs_root(&nd->path);
	} else if (base) {
		nd->path = *base;
		path_get(&nd->path);
	} else {
		get_fs_pwd(&nd->path);
	}
	return 0;
}

void nd_release(struct nameidata *nd)
{
	if (nd->path.dentry)
		path_put(&nd->path);
	nd->path.dentry = NULL;
	nd->path.mnt = NULL;
}

int path_lookup_from(const struct path *base, const char *name, unsigned int flags, struct path *out)
{
	struct nameidata nd;
	struct walk w = { .nd = &nd };
	struct qstr last;
	bool trailing;
	int err = nd_start(&nd, base, name);

	if (err)
		return err;
	nd.flags = flags;
	err = link_path_walk(&w, name, &last, &trailing);
	if (!err && last.len)
		err = walk_component(&w, &last, (flags & LOOKUP_FOLLOW) || trailing);
	if (!err && (trailing || (flags & LOOKUP_DIRECTORY)) &&
	    !S_ISDIR(nd.path.dentry->d_inode->i_mode))
		err = -ENOTDIR;
	if (err) {
		nd_release(&nd);
		return err;
	}
	*out = nd.path;
	return 0;
}

int kern_path(const char *name, unsigned int flags, struct path *path)
{
	return path_lookup_from(NULL, name, flags, path);
}

int path_parent_from(const struct path *base, const char *name, unsigned int flags,
		     struct nameidata *nd)
{
	struct walk w = { .nd = nd };
	int err = nd_start(nd, base, name);

	if (err)
		return err;
	nd->flags = flags | LOOKUP_PARENT;
	err = link_path_walk(&w, name, &nd->last, &nd->trailing_slash);
	if (!err && !S_ISDIR(nd->path.dentry->d_inode->i_mode))
		err = -ENOTDIR;
	if (err) {
		nd_release(nd);
		return err;
	}
	if (!nd->last.len)
		nd->last_type = LAST_ROOT;
	else if (nd->last.len == 1 && nd->last.name[0] == '.')
		nd->last_type = LAST_DOT;
	else if (nd->last.len == 2 && !memcmp(nd->last.name, "..", 2))
		nd->last_type = LAST_DOTDOT;
	else
		nd->last_type = LAST_NORM;
	return 0;
}

int path_parent(const char *name, unsigned int flags, struct nameidata *nd)
{
	return path_parent_from(NULL, name, flags, nd);
}
